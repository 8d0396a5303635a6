/** One result of a fallback searcher, before it is numbered as a source of an answer. */
export interface FallbackHit {
  /** Synthetic, stable id: `pubmed:<pmid>` or `web:<hash of the url>`. */
  id: string;
  searcher: "pubmed" | "web";
  title: string;
  url: string;
  /** What the answer may quote: the snippet, or the article's citation line for PubMed. */
  text: string;
  /** Where inside the source it comes from (the journal for PubMed), when known. */
  section: string | null;
  /** 1-based rank within its searcher's results. */
  rank: number;
}

export interface FallbackSearcher {
  name: FallbackHit["searcher"];
  search(query: string, options: { limit: number; signal?: AbortSignal }): Promise<FallbackHit[]>;
}

export interface FallbackResult {
  hits: FallbackHit[];
  /** The searchers that were asked. Empty when none is configured. */
  searchers: FallbackHit["searcher"][];
  /** Searchers that failed or timed out, with a short reason (their hits are simply missing). */
  failures: { searcher: FallbackHit["searcher"]; error: string }[];
}

export type SearchEnv = Record<string, string | undefined>;
