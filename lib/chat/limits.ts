import { MAX_MESSAGE_BYTES, MAX_TITLE_CHARS, SESSION_PAGE_MAX, SESSION_SEARCH_MAX_CHARS } from "./contract";

export { MAX_MESSAGE_BYTES, MAX_TITLE_CHARS, SESSION_PAGE_MAX, SESSION_SEARCH_MAX_CHARS };
/** New sessions are titled after the first words of their first message, at most this long. */
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

// Words a cut title should not end on: "the sample size of a" reads better as "the sample size".
const DANGLING = new Set(
  "a an the and or but nor of to for in on at by with from into about as than that which who whose is are was were be my our your its their this these those".split(
    " ",
  ),
);
const TRAILING_PUNCTUATION = /[\s.,;:!?…'"“”‘’()[\]{}<>*_`~–—-]+$/u;
const LEADING_MARKUP = /^(?:[#>*+-]+|\d{1,3}[.)])\s+/;

function withoutTrailingPunctuation(text: string): string {
  const stripped = text.replace(TRAILING_PUNCTUATION, "");
  // A closing bracket that closes something ("a 510(k)") is part of the words, not punctuation.
  const kept = text.slice(stripped.length).match(/^\)+/)?.[0] ?? "";
  const opens = (stripped.match(/\(/g) ?? []).length - (stripped.match(/\)/g) ?? []).length;
  return stripped + kept.slice(0, Math.max(0, opens));
}

/**
 * The title of a new session, from its first question: its first line (a long paste usually
 * follows the question), markdown markers and trailing punctuation dropped, cut at a word
 * boundary to at most TITLE_FROM_MESSAGE_CHARS without ending on a dangling little word. The
 * sidebar shows an ellipsis where a title does not fit, so the title itself carries none.
 */
export function titleFromMessage(message: string): string {
  const line =
    message
      .split(/\r?\n/)
      .map((l) => l.replace(LEADING_MARKUP, "").replace(/\s+/g, " ").trim())
      .find((l) => /[\p{L}\p{N}]/u.test(l)) ?? "";
  const flat = withoutTrailingPunctuation(line);
  if (flat.length <= TITLE_FROM_MESSAGE_CHARS) return flat || "New conversation";
  const words = flat.slice(0, TITLE_FROM_MESSAGE_CHARS + 1).split(" ");
  // The last word was cut mid-way unless the character after the limit is a space.
  if (flat[TITLE_FROM_MESSAGE_CHARS] !== " " && words.length > 1) words.pop();
  while (words.length > 1 && DANGLING.has(withoutTrailingPunctuation(words.at(-1) ?? "").toLowerCase())) words.pop();
  const title = withoutTrailingPunctuation(words.join(" ").slice(0, TITLE_FROM_MESSAGE_CHARS));
  return title || flat.slice(0, TITLE_FROM_MESSAGE_CHARS);
}

/** A message as one line of plain words: markdown's table pipes, headings and list markers left out. */
export function previewOf(content: string): string {
  const flat = content
    .split(/\r?\n/)
    .filter((line) => !/^\s*\|?\s*:?-{3,}/.test(line))
    .map((line) => line.replace(/^\s*(?:#{1,6}|>|[-*+]|\d{1,3}[.)])\s+/, "").replace(/\s*\|\s*/g, " "))
    .join(" ")
    .replace(/\s+/g, " ")
    .trim();
  return flat.length <= PREVIEW_CHARS ? flat : `${flat.slice(0, PREVIEW_CHARS - 1)}…`;
}
