import { errorResponse, withKeepAlive } from "@/lib/http";
import type { IngestProgress, IngestResult } from "@/lib/rag/contract";

// `POST /api/knowledge/documents` with `Accept: text/event-stream`: the upload's progress as
// server-sent events while it is extracted and indexed, then its outcome. The outcome event
// carries the body a plain POST answers with and, as `httpStatus`, the status it would have.

/** Progress events closer together than this are folded into the next one. */
const PROGRESS_EVERY_MS = 200;

export function wantsProgressEvents(req: Request): boolean {
  return req.headers.get("accept")?.includes("text/event-stream") ?? false;
}

export function ingestionEvents(ingest: (onProgress: (progress: IngestProgress) => void) => Promise<IngestResult>) {
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (event: string, data: unknown) => {
        try {
          controller.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
        } catch {
          // The caller went away; the document is still added.
        }
      };
      let sentAt = 0;
      let phase = "";
      const progress = (update: IngestProgress) => {
        const now = Date.now();
        const finished = update.phase === "indexing" && update.chunksDone === update.chunksTotal;
        if (update.phase === phase && !finished && now - sentAt < PROGRESS_EVERY_MS) return;
        phase = update.phase;
        sentAt = now;
        send("progress", update);
      };
      ingest(progress)
        .then((result) => send("result", { status: "success", ...result, httpStatus: result.created ? 201 : 200 }))
        .catch(async (error: unknown) => {
          const refusal = errorResponse(error);
          send("error", { ...(await refusal.json()), httpStatus: refusal.status });
        })
        .finally(() => {
          try {
            controller.close();
          } catch {
            // Already closed by the caller going away.
          }
        });
    },
  });
  return new Response(withKeepAlive(stream), {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      "x-accel-buffering": "no",
    },
  });
}
