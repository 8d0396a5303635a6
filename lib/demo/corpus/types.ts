/** A document of the demo knowledge base, written for this project. */
export interface CorpusDocument {
  /** Stable id, stored as the document's external id. */
  slug: string;
  domains: string[];
  /** Markdown; the first `#` heading is the title. */
  markdown: string;
}
