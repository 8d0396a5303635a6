// Fallback search: outside sources asked when the knowledge base has nothing for a question.
import "server-only";

export { configuredSearchers, fallbackSearch } from "./fallback";

export { pubmedSearcher } from "./pubmed";
export type { FallbackHit } from "./types";
export { webSearcher } from "./web";
