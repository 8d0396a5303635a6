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
      const changes = watchRun(runId);
      try {
        while (!closed) {
          changes.reset();
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
          await changes.next(signal);
        }
      } catch (error) {
        console.error(`[vigil] stream of run ${runId} failed`, error);
        send(
          `data: ${JSON.stringify({ type: "error", errorText: "The stream was interrupted; reconnect to continue." })}\n\n`,
        );
        finish();
      } finally {
        changes.close();
      }
    },
    cancel() {
      closed = true;
    },
  });
}

/**
 * Wake-ups for one run's stream. It listens for the stream's whole life, so a commit that lands
 * while the stream is reading is not missed: `next` then returns at once instead of waiting for
 * the poll.
 */
export function watchRun(runId: string) {
  const bus = runBus();
  let changed = false;
  let wake: (() => void) | null = null;
  const onChange = () => {
    changed = true;
    wake?.();
  };
  bus.on(runId, onChange);
  return {
    /** Called before each read: changes from here on count. */
    reset() {
      changed = false;
    },
    /** Resolves at the next change since the last reset (at once if one came), the poll, or abort. */
    next(signal?: AbortSignal): Promise<void> {
      if (changed || signal?.aborted) return Promise.resolve();
      return new Promise((resolve) => {
        const done = () => {
          clearTimeout(timer);
          wake = null;
          signal?.removeEventListener("abort", done);
          resolve();
        };
        const timer = setTimeout(done, POLL_MS);
        wake = done;
        signal?.addEventListener("abort", done);
      });
    },
    close() {
      bus.off(runId, onChange);
    },
  };
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
