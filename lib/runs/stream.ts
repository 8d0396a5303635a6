import type { TenantScope } from "@/lib/db";
import { runBus } from "./bus";
import { readEvents } from "./event-log";
import { UIChunkAdapter } from "./ui-stream";

// Streams of another instance's runs learn of new events by polling; this instance's by the bus.
const POLL_MS = 1000;
const PAGE = 500;

/**
 * A run's UI message stream as server-sent events, each chunk carrying its event's seq as
 * `id:`. Starting after `afterSeq`, it replays what the client missed, follows the run live,
 * and ends when the run finishes or waits for a human.
 */
export function runEventStream(scope: TenantScope, runId: string, afterSeq: number, signal?: AbortSignal) {
  const encoder = new TextEncoder();
  const adapter = new UIChunkAdapter();
  let cursor = 0;
  let closed = false;

  return new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (text: string) => {
        if (!closed) controller.enqueue(encoder.encode(text));
      };
      const finish = () => {
        if (closed) return;
        send("data: [DONE]\n\n");
        closed = true;
        controller.close();
      };
      signal?.addEventListener("abort", () => {
        closed = true;
        try {
          controller.close();
        } catch {
          // already closed
        }
      });
      try {
        while (!closed) {
          const events = await readEvents(scope, runId, cursor, PAGE);
          for (const event of events) {
            cursor = event.seq;
            const chunks = adapter.toChunks(event);
            // Events the client already has only rebuild the adapter's state.
            if (event.seq <= afterSeq) continue;
            for (const chunk of chunks) send(`id: ${event.seq}\ndata: ${JSON.stringify(chunk)}\n\n`);
          }
          if (events.length === PAGE) continue;
          if (adapter.settled && cursor >= afterSeq) return finish();
          await nextChange(runId, signal);
        }
      } catch (error) {
        console.error(`[vigil] stream of run ${runId} failed`, error);
        send(
          `data: ${JSON.stringify({ type: "error", errorText: "The stream was interrupted; reconnect to continue." })}\n\n`,
        );
        finish();
      }
    },
    cancel() {
      closed = true;
    },
  });
}

function nextChange(runId: string, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const bus = runBus();
    const done = () => {
      clearTimeout(timer);
      bus.off(runId, done);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, POLL_MS);
    bus.on(runId, done);
    signal?.addEventListener("abort", done);
  });
}

export function sseHeaders(): HeadersInit {
  return {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache, no-transform",
    connection: "keep-alive",
    "x-accel-buffering": "no",
    "x-vercel-ai-ui-message-stream": "v1",
  };
}
