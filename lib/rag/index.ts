// The knowledge base: ingestion, chunking, BM25 in SQL, optional vectors, fused retrieval.
import "server-only";

export type { SearchHit } from "./contract";
export { CHUNK_PAGE_MAX, GUIDE_DOMAIN, MAX_UPLOAD_BYTES } from "./contract";
export { documentOverview, listDocumentChunks } from "./document-chunks";
export { classifyDocument, DOCUMENT_PAGE_MAX, deleteDocument, getDocument, listDocuments } from "./documents";
export { configuredEmbeddingProvider, type EmbeddingProvider } from "./embeddings";

export { MAX_DOMAINS_PER_TENANT } from "./indexing";
export { ingestDocument, ingestDocuments } from "./ingest";
export { maintainKnowledgeIndex } from "./maintenance";
export { type DocumentOutline, documentOutlines } from "./outlines";
export { loadIntoEmptyKnowledgeBase } from "./owner-load";
export { isAboutTheProduct } from "./product-questions";
export { RRF_K } from "./rrf";
export { SEARCH_K_MAX, searchKnowledge, searchScopeOf } from "./search";
export { readDocumentUpload } from "./upload";
