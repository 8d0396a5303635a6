import { MAX_MESSAGE_BYTES, MAX_TITLE_CHARS, SESSION_PAGE_MAX } from "./contract";

export { MAX_MESSAGE_BYTES, MAX_TITLE_CHARS, SESSION_PAGE_MAX };
/** New sessions are titled after the first characters of their first message. */
export const TITLE_FROM_MESSAGE_CHARS = 60;
export const SESSION_PAGE_DEFAULT = 20;
export const PREVIEW_CHARS = 120;

/** The LangGraph thread of a chat session: its checkpoints are the conversation's memory. */
export function threadOfSession(sessionId: string): string {
  return `chat:${sessionId}`;
}

/** The session a chat thread belongs to, or null when the thread is not a chat's. */
export function sessionOfThread(threadId: string): string | null {
  const match = /^chat:([0-9a-f-]{36})$/i.exec(threadId);
  return match ? match[1] : null;
}

/** The title of a new session: the first words of its first message, cut at a word boundary. */
export function titleFromMessage(message: string): string {
  const flat = message.replace(/\s+/g, " ").trim();
  if (flat.length <= TITLE_FROM_MESSAGE_CHARS) return flat;
  const cut = flat.slice(0, TITLE_FROM_MESSAGE_CHARS);
  const space = cut.lastIndexOf(" ");
  return `${(space > 30 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

export function previewOf(content: string): string {
  const flat = content.replace(/\s+/g, " ").trim();
  return flat.length <= PREVIEW_CHARS ? flat : `${flat.slice(0, PREVIEW_CHARS - 1)}…`;
}
