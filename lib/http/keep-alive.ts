import { config } from "@/lib/config";

const COMMENT = new TextEncoder().encode(": keep-alive\n\n");

/** `VIGIL_SSE_KEEPALIVE_MS`: the longest silence on an event stream (default 15 s). */
function keepAliveMs(): number {
  return config().sseKeepAliveMs;
}

/**
 * A server-sent event stream that never stays silent for longer than `everyMs`: a comment line
 * (`: keep-alive`), which every event-stream reader skips (the AI SDK's parser, EventSource, the
 * upload's reader), goes out whenever nothing else did, so a load balancer's or proxy's idle
 * timeout does not cut a run that is thinking or waiting. `source` must enqueue whole events
 * (each chunk ends with a blank line): the comment only ever goes between chunks.
 */
export function withKeepAlive(source: ReadableStream<Uint8Array>, everyMs = keepAliveMs()): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let timer: NodeJS.Timeout | undefined;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const arm = () => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          try {
            controller.enqueue(COMMENT);
          } catch {
            return; // closed meanwhile
          }
          arm();
        }, everyMs);
      };
      arm();
      void (async () => {
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            controller.enqueue(value);
            arm();
          }
          controller.close();
        } catch (error) {
          try {
            controller.error(error);
          } catch {
            // the reader went away first
          }
        } finally {
          clearTimeout(timer);
        }
      })();
    },
    cancel(reason) {
      clearTimeout(timer);
      return reader.cancel(reason);
    },
  });
}
