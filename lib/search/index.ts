// Fallback search: outside sources asked when the knowledge base has nothing for a question.
export { configuredSearchers, fallbackSearch } from "./fallback";
export { fallbackTimeoutMs } from "./http";
export { PUBMED_BASE_URL, pubmedSearcher } from "./pubmed";
export type { FallbackHit, FallbackResult, FallbackSearcher, SearchEnv } from "./types";
export { webSearcher } from "./web";
