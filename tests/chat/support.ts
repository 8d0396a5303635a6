import type { UIMessageChunk } from "ai";
import { count, eq } from "drizzle-orm";
import * as chatRoute from "@/app/api/chat/route";
import { type Database, schema } from "@/lib/db";
import { createApiKey } from "@/lib/tenancy";

export interface ChatCall {
  status: number;
  headers: Headers;
  /** The JSON body of an error answer. */
  body: Record<string, unknown>;
  chunks: UIMessageChunk[];
  done: boolean;
}

/** An API key of a new principal in the tenant, and that principal's user id. */
export async function principal(tenantId: string, role: "member" | "reviewer" | "admin" = "member") {
  const created = await createApiKey({ tenantId }, { name: `chat-${role}`, role, createdBy: "test" });
  return { key: created.key, userId: `apikey:${created.id}`, auth: { authorization: `Bearer ${created.key}` } };
}

/** POST /api/chat through the route handler, reading the whole event stream. */
export async function postChat(
  auth: Record<string, string> | undefined,
  body: unknown,
  rawBody?: string,
): Promise<ChatCall> {
  const headers = new Headers(auth);
  headers.set("content-type", "application/json");
  const req = new Request("http://localhost/api/chat", {
    method: "POST",
    headers,
    body: rawBody ?? JSON.stringify(body),
  });
  const res = await chatRoute.POST(req, undefined as never);
  if (!res.headers.get("content-type")?.includes("text/event-stream")) {
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : {}, chunks: [], done: false };
  }
  const text = await res.text();
  const frames = text
    .split("\n\n")
    // Comments (the stream's opening line) carry no event.
    .filter((raw) => raw && !raw.startsWith(":"))
    .map((raw) => raw.replace(/^(id: .*\n)?data: /, ""));
  const done = frames.at(-1) === "[DONE]";
  const chunks = frames.filter((f) => f !== "[DONE]").map((f) => JSON.parse(f) as UIMessageChunk);
  return { status: res.status, headers: res.headers, body: {}, chunks, done };
}

/** A stream's chunks as the message the client would show (one reader for every suite). */
export { assemble } from "../support/sse";

export function textOf(chunks: UIMessageChunk[]): string {
  return chunks
    .filter((c): c is Extract<UIMessageChunk, { type: "text-delta" }> => c.type === "text-delta")
    .map((c) => c.delta)
    .join("");
}

export function citedIn(text: string): number[] {
  return [...new Set([...text.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])))].sort((a, b) => a - b);
}

/** Rows of the chat tables and runs, read as the owner (for "nothing written" checks). */
export async function chatCounts(database: Database) {
  const { db } = database;
  const [[sessions], [messages], [runs]] = await Promise.all([
    db.select({ n: count() }).from(schema.chatSessions),
    db.select({ n: count() }).from(schema.chatMessages),
    db.select({ n: count() }).from(schema.runs).where(eq(schema.runs.workflow, "ask-expert")),
  ]);
  return { sessions: Number(sessions.n), messages: Number(messages.n), runs: Number(runs.n) };
}
