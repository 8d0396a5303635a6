// A worker thread that extracts one document (decode, parse — PDF included — normalise, hash,
// chunk) off the server's event loop. It posts the chunks a batch at a time, so that reading
// them back never holds the event loop long either, then the rest of the document.

import { parentPort, workerData } from "node:worker_threads";
import { DomainError } from "@/lib/errors";
import type { DocumentInput } from "./contract";
import { extractDocument } from "./extract";
import type { ExtractionMessage } from "./extract-thread";

const CHUNKS_PER_MESSAGE = 500;

function post(message: ExtractionMessage): void {
  parentPort?.postMessage(message);
}

async function run(input: DocumentInput): Promise<void> {
  try {
    const { chunks, ...document } = await extractDocument(input);
    for (let i = 0; i < chunks.length; i += CHUNKS_PER_MESSAGE) {
      post({ type: "chunks", chunks: chunks.slice(i, i + CHUNKS_PER_MESSAGE) });
    }
    post({ type: "extracted", document });
  } catch (error) {
    post({
      type: "failed",
      error:
        error instanceof DomainError
          ? { kind: error.kind, code: error.code, message: error.message, details: error.details }
          : { message: error instanceof Error ? error.message : String(error) },
    });
  }
}

// PDF.js tears a page's text stream down on its own after `readPdf` cancels it (a PDF stopped at
// the character limit), and may then reject a promise nobody awaits ("Controller is already
// closed"). Left alone, that crashes this thread, and if the crash reaches the server before
// the failure `run` posts, a clear 413 becomes a 500. Such a rejection is not the document's
// outcome: `run` awaits everything that decides it and always posts one (or the deadline ends
// the worker), so a stray rejection is dropped here.
process.on("unhandledRejection", () => {});

void run((workerData as { input: DocumentInput }).input);
