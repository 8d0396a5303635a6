import { apiFetch } from "@/components/ui/api";
import type {
  ChatMessage,
  ChatMessageView,
  ChatSessionDetailResponse,
  ChatSessionListResponse,
} from "@/lib/chat/contract";

export const SESSIONS_KEY = ["chat", "sessions"] as const;
export const sessionKey = (id: string) => ["chat", "session", id] as const;

/** The list's key for a title search (`SESSIONS_KEY` alone still refreshes every search). */
export const sessionSearchKey = (q: string) => [...SESSIONS_KEY, { q }] as const;

export function fetchSessions(cursor?: string | null, q?: string): Promise<ChatSessionListResponse> {
  const params = new URLSearchParams({ limit: "30" });
  if (cursor) params.set("cursor", cursor);
  if (q) params.set("q", q);
  return apiFetch<ChatSessionListResponse>(`/api/chat/sessions?${params}`);
}

export function fetchSession(id: string): Promise<ChatSessionDetailResponse> {
  return apiFetch<ChatSessionDetailResponse>(`/api/chat/sessions/${encodeURIComponent(id)}`);
}

export function renameSession(id: string, title: string): Promise<unknown> {
  return apiFetch(`/api/chat/sessions/${encodeURIComponent(id)}`, {
    method: "PATCH",
    body: JSON.stringify({ title }),
  });
}

export function deleteSession(id: string): Promise<unknown> {
  return apiFetch(`/api/chat/sessions/${encodeURIComponent(id)}`, { method: "DELETE" });
}

/** How a Stop ended on the server: the run cancelled, or it had finished before Stop arrived. */
export type CancelOutcome = "cancelled" | "already-finished" | "unknown";

/**
 * Cancels the run that writes an answer, saying how much of its text the person had on screen
 * (the server keeps no more than that). Best effort: a lost connection reads as "unknown".
 */
export async function cancelRun(runId: string, shownChars: number): Promise<CancelOutcome> {
  try {
    const res = await fetch(`/api/runs/${encodeURIComponent(runId)}/cancel`, {
      method: "POST",
      credentials: "same-origin",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ shown: { textChars: shownChars } }),
    });
    if (res.ok) return "cancelled";
    if (res.status === 409) return "already-finished";
  } catch {
    // the server may still cancel it; the page keeps what it shows
  }
  return "unknown";
}

/** The length of the answer text on screen: the last assistant message's last text part. */
export function shownTextChars(messages: readonly ChatMessage[]): number {
  const last = messages.at(-1);
  if (last?.role !== "assistant") return 0;
  const text = last.parts.filter((p) => p.type === "text").at(-1);
  return text && "text" in text ? text.text.length : 0;
}

/**
 * The transport reports a refused request as an Error whose message is the response body; the
 * person should read the server's message, not JSON.
 */
export function errorMessage(error: unknown): string {
  const raw = error instanceof Error ? error.message : String(error ?? "");
  try {
    const body = JSON.parse(raw) as { status?: string; message?: string; code?: string };
    if (body.message) return body.message;
    if (body.status === "not_found") return "This conversation or expert does not exist.";
    if (body.code) return body.code;
  } catch {
    // not JSON: a stream error's own text
  }
  if (/failed to fetch|networkerror|load failed/i.test(raw)) return "The connection to the server was lost.";
  return raw || "Something went wrong.";
}

/** A stored message as the chat shows it: sources first (as the stream sends them), then the text. */
export function toChatMessage(m: ChatMessageView): ChatMessage {
  const parts: ChatMessage["parts"] = [];
  if (m.role === "assistant" && m.sources && m.sources.length > 0) {
    parts.push({ type: "data-sources", data: { items: m.sources } });
  }
  if (m.role === "assistant" && m.metadata.sql) parts.push({ type: "data-sql", data: m.metadata.sql });
  if (m.role === "assistant" && m.metadata.rephrasings) {
    parts.push({ type: "data-rephrasings", data: m.metadata.rephrasings });
  }
  parts.push({ type: "text", text: m.content, state: "done" });
  return {
    id: m.id,
    role: m.role,
    parts,
    metadata: { ...m.metadata, citations: m.citations, createdAt: m.createdAt },
  };
}
