// Reading a run's server-sent UI message stream as a client does: its frames, their chunks, and
// the message the AI SDK assembles from them.
import { readUIMessageStream, type UIMessage, type UIMessageChunk } from "ai";

export interface Frame {
  id: number | null;
  data: string;
}

/** Reads a server-sent-event body into frames; stops after `limit` frames when given. */
export async function readFrames(body: ReadableStream<Uint8Array>, limit = Number.POSITIVE_INFINITY): Promise<Frame[]> {
  const reader = body
    .pipeThrough(new TextDecoderStream() as unknown as ReadableWritablePair<string, Uint8Array>)
    .getReader();
  const frames: Frame[] = [];
  let buffer = "";
  while (frames.length < limit) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += value;
    let end = buffer.indexOf("\n\n");
    while (end >= 0 && frames.length < limit) {
      const raw = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf("\n\n");
      // A comment (the stream's opening line) carries no event.
      if (raw.startsWith(":")) continue;
      const id = /^id: (\d+)$/m.exec(raw)?.[1];
      frames.push({ id: id ? Number(id) : null, data: raw.replace(/^(id: .*\n)?data: /, "") });
    }
  }
  await reader.cancel();
  return frames;
}

export const chunksOf = (frames: Frame[]) =>
  frames.filter((f) => f.data !== "[DONE]").map((f) => JSON.parse(f.data) as UIMessageChunk);

export async function assemble(chunks: UIMessageChunk[]): Promise<UIMessage> {
  const stream = new ReadableStream<UIMessageChunk>({
    start(c) {
      for (const chunk of chunks) c.enqueue(chunk);
      c.close();
    },
  });
  let last: UIMessage | undefined;
  for await (const message of readUIMessageStream({ stream })) last = message;
  if (!last) throw new Error("no message");
  return last;
}
