import { DomainError } from "@/lib/errors";
import { MAX_CHUNKS_PER_DOCUMENT, PDF_MAX_CHARACTERS, PDF_MAX_PAGES } from "./contract";

// How far extracting one upload may go (the limits on what it holds are in the contract). The
// time and memory limits stop a document that is still too costly in its worker thread. The
// worker thread imports this file, so it reads no settings (lib/config is server-only): the
// time limit is read where the thread is started (extract-thread.ts).
/** Heap of the extraction worker (MB): a PDF that still blows up is stopped, not the server. */
export const EXTRACTION_HEAP_MB = 512;

const secondsOf = (ms: number) => {
  const seconds = Math.max(1, Math.round(ms / 1000));
  return seconds === 1 ? "1 second" : `${seconds} seconds`;
};

const SPLIT = "split it into smaller documents and upload those.";

export const limitErrors = {
  pages: () =>
    new DomainError("too_large", "DOCUMENT_TOO_LARGE", `The PDF has more than ${PDF_MAX_PAGES} pages; ${SPLIT}`, {
      limit: "pages",
      max: PDF_MAX_PAGES,
    }),
  characters: (what = "PDF") =>
    new DomainError(
      "too_large",
      "DOCUMENT_TOO_LARGE",
      `The ${what} holds more than ${PDF_MAX_CHARACTERS.toLocaleString("en")} characters of text; ${SPLIT}`,
      { limit: "characters", max: PDF_MAX_CHARACTERS },
    ),
  chunks: () =>
    new DomainError(
      "too_large",
      "DOCUMENT_TOO_LARGE",
      `The document makes more than ${MAX_CHUNKS_PER_DOCUMENT.toLocaleString("en")} passages; ${SPLIT}`,
      { limit: "chunks", max: MAX_CHUNKS_PER_DOCUMENT },
    ),
  memory: () =>
    new DomainError(
      "too_large",
      "DOCUMENT_TOO_LARGE",
      `Reading the document needed more than ${EXTRACTION_HEAP_MB} MB of memory; ${SPLIT}`,
      { limit: "memory", max: EXTRACTION_HEAP_MB },
    ),
  time: (ms: number) =>
    new DomainError(
      "unprocessable",
      "EXTRACTION_TIMEOUT",
      `Reading the document took longer than ${secondsOf(ms)}; ${SPLIT}`,
      { timeout_ms: ms },
    ),
};
