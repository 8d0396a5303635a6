import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { config } from "@/lib/config";
import { DomainError, type ErrorKind } from "@/lib/errors";
import type { ChunkDraft } from "./chunking";
import type { DocumentInput } from "./contract";
import { type ExtractedDocument, extractDocument } from "./extract";
import { EXTRACTION_HEAP_MB, limitErrors } from "./extraction-limits";

// Extraction is CPU work — PDF parsing above all, then normalising, hashing and cutting text
// into chunks — and a request that does it on the event loop holds every other request for as
// long. Documents past a small size, and every PDF and Word document (an archive that may inflate), are extracted in a worker thread, with a
// heap limit and a deadline: a document that still costs too much stops its worker, not the server.

/** Text documents below this size are extracted in place: a worker would cost more than it saves. */
export const IN_PLACE_MAX_BYTES = 256 * 1024;

export type ExtractionMessage =
  | { type: "chunks"; chunks: ChunkDraft[] }
  | { type: "extracted"; document: Omit<ExtractedDocument, "chunks"> }
  | {
      type: "failed";
      error: { kind?: ErrorKind; code?: string; message: string; details?: unknown };
    };

function sizeOf(content: string | Uint8Array): number {
  return typeof content === "string" ? Buffer.byteLength(content) : content.byteLength;
}

/** Whether extracting `input` is left to a worker thread. */
export function extractsOffLoop(input: DocumentInput): boolean {
  return input.format === "pdf" || input.format === "docx" || sizeOf(input.content) > IN_PLACE_MAX_BYTES;
}

/** A document's text, chunks and identity, extracted off the event loop when it is large. */
export function extractDocumentOffLoop(input: DocumentInput): Promise<ExtractedDocument> {
  return extractsOffLoop(input) ? extractInWorker(input) : extractDocument(input);
}

/** Bytes that own their whole buffer move to the worker instead of being copied. */
function transferable(content: string | Uint8Array): ArrayBuffer[] {
  if (typeof content === "string") return [];
  const { buffer } = content;
  return buffer instanceof ArrayBuffer && content.byteOffset === 0 && content.byteLength === buffer.byteLength
    ? [buffer]
    : [];
}

function startWorker(input: DocumentInput): Worker {
  const options = {
    workerData: { input },
    transferList: transferable(input.content),
    resourceLimits: { maxOldGenerationSizeMb: EXTRACTION_HEAP_MB },
  };
  if (process.env.NEXT_RUNTIME) {
    // Next.js bundles the worker with what it imports; this exact form is what it follows.
    return new Worker(new URL("./extract-worker.ts", import.meta.url), options);
  }
  // Scripts and tests run the TypeScript sources: tsx compiles the worker's too.
  const entry = path.join(path.dirname(fileURLToPath(import.meta.url)), "extract-worker.ts");
  return new Worker(`require("tsx/cjs/api").register(); require(${JSON.stringify(entry)});`, {
    ...options,
    eval: true,
  });
}

export function extractInWorker(input: DocumentInput): Promise<ExtractedDocument> {
  const worker = startWorker(input);
  const chunks: ChunkDraft[] = [];
  // How long one extraction may take (`VIGIL_EXTRACT_TIMEOUT_MS`, 60 s by default).
  const timeoutMs = config().extractTimeoutMs;
  let timer: NodeJS.Timeout | undefined;
  return new Promise<ExtractedDocument>((resolve, reject) => {
    // The worker is terminated in `finally`, wherever in PDF.js it is.
    timer = setTimeout(() => reject(limitErrors.time(timeoutMs)), timeoutMs);
    worker.on("message", (message: ExtractionMessage) => {
      if (message.type === "chunks") {
        chunks.push(...message.chunks);
      } else if (message.type === "extracted") {
        resolve({ ...message.document, chunks });
      } else {
        const { kind, code, message: text, details } = message.error;
        reject(kind && code ? new DomainError(kind, code, text, details) : new Error(`extraction failed: ${text}`));
      }
    });
    worker.on("error", (error: Error & { code?: string }) =>
      reject(error.code === "ERR_WORKER_OUT_OF_MEMORY" ? limitErrors.memory() : error),
    );
    worker.on("exit", (code) => reject(new Error(`the extraction worker stopped (exit code ${code})`)));
  }).finally(() => {
    clearTimeout(timer);
    return worker.terminate();
  });
}
