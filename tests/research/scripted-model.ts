import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

// A scripted model behind a real OpenAI-compatible endpoint: the run reaches it exactly as it
// would reach Ollama or vLLM (the engine seam, the AI SDK provider, HTTP), and the script decides
// each answer from the request's own prompt. Nothing in the product is swapped out.

export interface ModelCall {
  /** The phase, from the system prompt's "Research step: <phase>." (or "Run step: <phase>."). */
  phase: string;
  system: string;
  prompt: string;
}

/** An object is sent as the model's JSON; a string is sent as written (e.g. not JSON at all). */
export type Script = (call: ModelCall, calls: ModelCall[]) => unknown;

export interface ScriptedModel {
  baseUrl: string;
  calls: ModelCall[];
  script: Script;
  close(): Promise<void>;
}

export async function startScriptedModel(modelId: string): Promise<ScriptedModel> {
  const model: ScriptedModel = {
    baseUrl: "",
    calls: [],
    script: () => {
      throw new Error("no script");
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      const request = JSON.parse(body) as { messages: { role: string; content: string }[]; stream?: boolean };
      const system = request.messages.find((m) => m.role === "system")?.content ?? "";
      const prompt = request.messages
        .filter((m) => m.role === "user")
        .map((m) => m.content)
        .join("\n");
      const call = { phase: /^(?:Research|Run) step: (\w+)\./.exec(system)?.[1] ?? "unknown", system, prompt };
      model.calls.push(call);
      let content: string;
      try {
        const out = model.script(call, model.calls);
        content = typeof out === "string" ? out : JSON.stringify(out);
      } catch (error) {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: String(error) } }));
        return;
      }
      const usage = { prompt_tokens: Math.ceil(body.length / 4), completion_tokens: Math.ceil(content.length / 4) };
      if (request.stream) {
        // A streamed answer (streamText): the content as one chunk, then the finish and the usage.
        const chunk = (choice: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
          `data: ${JSON.stringify({ id: `chatcmpl-${model.calls.length}`, object: "chat.completion.chunk", created: 0, model: modelId, choices: [{ index: 0, ...choice }], ...extra })}\n\n`;
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write(chunk({ delta: { role: "assistant", content }, finish_reason: null }));
        res.write(chunk({ delta: {}, finish_reason: "stop" }, { usage }));
        res.end("data: [DONE]\n\n");
        return;
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          id: `chatcmpl-${model.calls.length}`,
          object: "chat.completion",
          created: 0,
          model: modelId,
          choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
          usage,
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  model.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return model;
}

/** The numbered blocks of a prompt ("[n] Title…\ntext"), as the research phases write them. */
export function blocksOf(prompt: string): { n: number; text: string }[] {
  const parts = prompt.split(/\n\n(?=\[\d+\] )/);
  return parts
    .map((part) => /^(?:[\s\S]*?\n)?\[(\d+)\] [^\n]*\n([\s\S]*)$/.exec(part))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({
      n: Number(m[1]),
      text: m[2].split("\n\nPreserved quotes:")[0].replace(/\n\((?:depth|tier) [^\n]*\)$/, ""),
    }));
}

/** A whole sentence of a passage (a slice of it), long enough to stand alone; null when none. */
export function sentenceOf(text: string): string | null {
  return (
    text
      .split(/(?<=[.!?])\s+/)
      .find((s) => s.length >= 40 && !s.includes("\n") && !s.startsWith("#") && /[.!?]$/.test(s)) ?? null
  );
}
