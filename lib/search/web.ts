import { createHash } from "node:crypto";
import { config } from "@/lib/config";
import { clip, fallbackTimeoutMs, getJson } from "./http";
import type { FallbackHit, FallbackSearcher, SearchEnv } from "./types";

interface WebResponse {
  results?: unknown;
}

/**
 * A generic web-search adapter: `GET <VIGIL_WEB_SEARCH_URL>?q=<query>&limit=<n>` (or the URL
 * with `{query}` replaced, when it has that placeholder) answering
 * `{"results": [{"title": "…", "url": "https://…", "snippet": "…"}]}`. Put any search API
 * behind a small proxy of that shape. `VIGIL_WEB_SEARCH_API_KEY` is sent as a bearer token.
 */
export function webSearcher(env: SearchEnv): FallbackSearcher | null {
  const { webSearchUrl: endpoint, webSearchApiKey: apiKey } = config(env);
  if (!endpoint) return null;
  const timeoutMs = fallbackTimeoutMs(env);
  const headers: Record<string, string> = apiKey ? { authorization: `Bearer ${apiKey}` } : {};
  return {
    name: "web",
    async search(query, { limit, signal }) {
      const url = endpoint.includes("{query}")
        ? endpoint.replace("{query}", encodeURIComponent(query))
        : withParams(endpoint, { q: query, limit: String(limit) });
      const body = (await getJson(url, { timeoutMs, signal, headers })) as WebResponse;
      const results = Array.isArray(body.results) ? body.results : [];
      const hits: FallbackHit[] = [];
      for (const raw of results) {
        if (hits.length >= limit) break;
        const r = raw as { title?: unknown; url?: unknown; snippet?: unknown };
        if (typeof r.url !== "string" || !/^https?:\/\//i.test(r.url)) continue;
        const title = typeof r.title === "string" && r.title.trim() ? clip(r.title, 300) : r.url;
        const snippet = typeof r.snippet === "string" ? clip(r.snippet, 2000) : "";
        hits.push({
          id: `web:${createHash("sha256").update(r.url).digest("hex").slice(0, 16)}`,
          searcher: "web",
          title,
          url: r.url,
          text: snippet || title,
          section: new URL(r.url).host,
          rank: hits.length + 1,
        });
      }
      return hits;
    },
  };
}

function withParams(endpoint: string, params: Record<string, string>): string {
  const url = new URL(endpoint);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
}
