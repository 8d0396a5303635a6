import { config } from "@/lib/config";
import { clip, fallbackTimeoutMs, getJson } from "./http";
import type { FallbackHit, FallbackSearcher, SearchEnv } from "./types";

export const PUBMED_BASE_URL = "https://eutils.ncbi.nlm.nih.gov/entrez/eutils";

interface ESearch {
  esearchresult?: { idlist?: unknown };
}

interface ESummaryDoc {
  uid?: string;
  title?: string;
  fulljournalname?: string;
  source?: string;
  pubdate?: string;
  authors?: { name?: string }[];
  elocationid?: string;
}

interface ESummary {
  result?: { uids?: unknown } & Record<string, unknown>;
}

/**
 * PubMed through NCBI E-utilities: `esearch` finds PMIDs for the query, `esummary` describes
 * them (JSON both). E-utilities allow 3 requests a second without a key, 10 with
 * `NCBI_API_KEY`. Summaries carry no abstract, so the quotable text is the article's title and
 * citation line.
 */
export function pubmedSearcher(env: SearchEnv): FallbackSearcher | null {
  const settings = config(env);
  if (!settings.pubmedEnabled) return null;
  const base = (settings.pubmedBaseUrl || PUBMED_BASE_URL).replace(/\/+$/, "");
  const timeoutMs = fallbackTimeoutMs(env);
  const common = new URLSearchParams({ db: "pubmed", retmode: "json", tool: "vigil" });
  if (env.NCBI_API_KEY) common.set("api_key", env.NCBI_API_KEY);

  return {
    name: "pubmed",
    async search(query, { limit, signal }) {
      const search = new URLSearchParams(common);
      search.set("term", query);
      search.set("retmax", String(limit));
      search.set("sort", "relevance");
      const found = (await getJson(`${base}/esearch.fcgi?${search}`, { timeoutMs, signal })) as ESearch;
      const ids = Array.isArray(found.esearchresult?.idlist)
        ? found.esearchresult.idlist.filter((id): id is string => typeof id === "string" && /^\d+$/.test(id))
        : [];
      if (ids.length === 0) return [];
      const summary = new URLSearchParams(common);
      summary.set("id", ids.slice(0, limit).join(","));
      const described = (await getJson(`${base}/esummary.fcgi?${summary}`, { timeoutMs, signal })) as ESummary;
      const result = described.result ?? {};
      const hits: FallbackHit[] = [];
      for (const pmid of ids.slice(0, limit)) {
        const doc = result[pmid] as ESummaryDoc | undefined;
        const title = doc?.title?.trim();
        if (!title) continue;
        hits.push(toHit(pmid, doc as ESummaryDoc, hits.length + 1));
      }
      return hits;
    },
  };
}

function toHit(pmid: string, doc: ESummaryDoc, rank: number): FallbackHit {
  const title = clip(doc.title ?? "", 500);
  const journal = doc.fulljournalname?.trim() || doc.source?.trim() || null;
  const authors = (doc.authors ?? []).map((a) => a.name?.trim()).filter((n): n is string => Boolean(n));
  const byline = authors.length > 3 ? `${authors.slice(0, 3).join(", ")} et al.` : authors.join(", ");
  const citation = [journal, doc.pubdate?.trim()].filter(Boolean).join(", ");
  const sentence = /[.?!]$/.test(title) ? title : `${title}.`;
  const line = [citation && `Published in ${citation}`, byline && `by ${byline}`].filter(Boolean).join(" ");
  return {
    id: `pubmed:${pmid}`,
    searcher: "pubmed",
    title,
    url: `https://pubmed.ncbi.nlm.nih.gov/${pmid}/`,
    text: line ? `${sentence}\n\n${line}.` : sentence,
    section: journal,
    rank,
  };
}
