// The knowledge base: ingestion, chunking, BM25 in SQL, optional vectors, fused retrieval.
export { BM25_B, BM25_K1, bm25Query, rankBm25 } from "./bm25";
export { CHUNK_MAX, type ChunkDraft, chunkBlocks, sentencesOf } from "./chunking";
export { DOCUMENT_PAGE_MAX, deleteDocument, getDocument, listDocuments } from "./documents";
export {
  configuredEmbeddingProvider,
  type EmbeddingProvider,
  embeddingProviderFromEnv,
  type OpenAiCompatibleOptions,
  openAiCompatibleEmbeddings,
} from "./embeddings";
export { contentHashOf, type ExtractedDocument, extractDocument, normalizeText } from "./extract";
export { MAX_DOMAINS_PER_TENANT } from "./indexing";
export { type IngestOptions, ingestDocument, normalizeDomains } from "./ingest";
export { maintainKnowledgeIndex } from "./maintenance";
export { loadIntoEmptyKnowledgeBase, type OwnedDocument } from "./owner-load";
export { RRF_K, reciprocalRankFusion } from "./rrf";
export { SEARCH_K_DEFAULT, SEARCH_K_MAX, type SearchInput, searchKnowledge, searchScopeOf } from "./search";
export type {
  DocumentInput,
  DocumentPage,
  IngestResult,
  KnowledgeChunk,
  KnowledgeDocument,
  KnowledgeFormat,
  SearchHit,
  SearchResult,
} from "./types";
export { DOMAIN_PATTERN, GUIDE_DOMAIN, MAX_UPLOAD_BYTES } from "./types";
export { formatOfFile, readDocumentUpload } from "./upload";
export { refreshEmbeddings, vectorStoreReady } from "./vectors";
