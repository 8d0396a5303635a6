import type { TenantScope } from "@/lib/db";
import { logger } from "@/lib/log";
import { type LogGrowth, runBus } from "./bus";
import type { RunEvent } from "./contract";
import { readEvents, supersededParts } from "./event-log";
import { UIChunkAdapter } from "./ui-stream";
import { listenAcrossInstances } from "./wakeups";

// Streams of this instance's runs learn of new events by the bus; another instance's by its
// notification (LISTEN/NOTIFY on a server database, see wakeups.ts), or else by polling.
const POLL_MS = 1000;
const PAGE = 500;

/**
 * A run's UI message stream as server-sent events, each chunk carrying its event's seq as
 * `id:`. Starting after `afterSeq`, it replays what the client missed, follows the run live,
 * and ends when the run finishes or waits for a human.
 */
export function runEventStream(scope: TenantScope, runId: string, afterSeq: number, signal?: AbortSignal) {
  const encoder = new TextEncoder();
  let adapter = new UIChunkAdapter();
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
      // Headers and a first byte now: the client learns the run (to stop it) before any event.
      send(": stream open\n\n");
      try {
        // Parts of attempts that died mid-answer are named later in the log than their text:
        // learnt first, so the replay skips them.
        adapter = new UIChunkAdapter(await supersededParts(scope, runId));
        while (!closed) {
          // What this process committed comes straight from the bus; anything else from the log.
          const live = changes.take(cursor);
          const events = live ?? (await readEvents(scope, runId, cursor, PAGE));
          for (const event of events) {
            cursor = event.seq;
            const chunks = adapter.toChunks(event);
            // Events the client already has only rebuild the adapter's state.
            if (event.seq <= afterSeq) continue;
            for (const chunk of chunks) send(`id: ${event.seq}\ndata: ${JSON.stringify(chunk)}\n\n`);
          }
          if (!live && events.length === PAGE) continue;
          if (adapter.settled && cursor >= afterSeq) return finish();
          await changes.next(signal);
        }
      } catch (error) {
        logger({ runId }).error({ err: error }, `stream of run ${runId} failed`);
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
 * Wake-ups for one run's stream, with the events this process committed to its log. It listens
 * for the stream's whole life, so a commit that lands while the stream is reading is not
 * missed: `next` then returns at once instead of waiting for the poll.
 */
export function watchRun(runId: string) {
  void listenAcrossInstances();
  const bus = runBus();
  let changed = false;
  let wake: (() => void) | null = null;
  let delivered: RunEvent[] = [];
  const onChange = (growth?: LogGrowth) => {
    if (growth) delivered.push(...growth.events);
    changed = true;
    wake?.();
  };
  bus.on(runId, onChange);
  return {
    /**
     * Called before each read; changes from here on count. Returns the events handed over since
     * the last call that follow `cursor` without a gap ([] when all were already read), or null
     * when the log must be read instead: nothing was handed over (the first read, a poll, a
     * bare wake-up) or a commit's events arrived before an earlier commit's.
     */
    take(cursor: number): RunEvent[] | null {
      const handed = delivered;
      delivered = [];
      changed = false;
      if (handed.length === 0) return null;
      const fresh = handed.filter((e) => e.seq > cursor).sort((a, b) => a.seq - b.seq);
      for (let i = 0; i < fresh.length; i++) if (fresh[i].seq !== cursor + 1 + i) return null;
      return fresh;
    },
    /** Resolves at the next change since the last take (at once if one came), the poll, or abort. */
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
