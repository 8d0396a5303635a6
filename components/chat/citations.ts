// Citations in an answer: `[n]` (or `[1, 3]`) after a sentence names the sources it quotes.
// The markdown is rendered first; this plugin then turns each citation in the rendered text into
// a `citation` element (rendered as a badge), so numbers inside code are left alone and a half-
// streamed `[1` never turns into a link.

interface HastText {
  type: "text";
  value: string;
  children?: undefined;
}
interface HastElement {
  type: "element";
  tagName: string;
  properties: Record<string, unknown>;
  children: HastNode[];
}
interface HastOther {
  type: string;
  children?: HastNode[];
}
type HastNode = HastText | HastElement | HastOther;

const CITATION = /\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/g;
const SKIP = new Set(["code", "pre", "a", "kbd", "script", "style"]);

/** While an answer streams, a citation whose closing bracket has not arrived yet is held back. */
export function withoutPartialCitation(text: string): string {
  return text.replace(/\s?\[[\d,\s]*$/, "");
}

/** The last sentence of a run of text: what a citation right after it vouches for. */
export function lastSentence(text: string): string {
  const trimmed = text.replace(/\s+/g, " ").trim();
  if (!trimmed) return "";
  const parts = trimmed.split(/(?<=[.!?])\s+(?=[A-Z0-9"“(])/);
  return (parts.at(-1) ?? trimmed).trim();
}

function isText(node: HastNode): node is HastText {
  return node.type === "text";
}
function isElement(node: HastNode): node is HastElement {
  return node.type === "element";
}

function textOf(node: HastNode): string {
  if (isText(node)) return node.value;
  return (node.children ?? []).map(textOf).join("");
}

/** Rehype plugin: splits text nodes at citations into `<citation n quote>` elements. */
export function rehypeCitations() {
  return (tree: HastNode) => {
    walk(tree);
  };
}

/** Several quoted sentences travel in one `data-quote`, one per line. */
export const QUOTE_SEPARATOR = "\n";

/** The badges of the last citation in a block, kept so a next sentence from the same sources can take them over. */
interface LastCitation {
  key: string;
  at: number;
  count: number;
  quotes: string[];
}

function walk(parent: HastNode) {
  if (!parent.children) return;
  if (isElement(parent) && SKIP.has(parent.tagName)) return;
  let since = ""; // text since the previous citation in this block
  let quote = ""; // what the previous citation vouched for: `[2][3]` share one sentence
  // Consecutive sentences quoting the same sources (`… [1] … [1] … [1]`) show one badge, after
  // the last of them, which opens the passage with all of them highlighted.
  let previous: LastCitation | null = null;
  const out: HastNode[] = [];
  for (const child of parent.children) {
    if (!isText(child)) {
      if (isElement(child) && !SKIP.has(child.tagName)) walk(child);
      out.push(child);
      since += textOf(child);
      // Anything but plain text (a link, emphasis, a line break) ends a run of sentences.
      previous = null;
      continue;
    }
    let last = 0;
    for (const match of child.value.matchAll(CITATION)) {
      const at = match.index ?? 0;
      const before = child.value.slice(last, at);
      if (before) out.push({ type: "text", value: before });
      since += before;
      const sentence = lastSentence(since);
      const worded = /\w{2}/.test(sentence);
      if (worded) quote = sentence;
      const numbers = match[1].split(",").map((s) => Number(s.trim()));
      const key = numbers.join(",");
      let quotes = [quote];
      if (previous && previous.key === key && worded) {
        // The same sources as the badge before, with only text between: this one replaces it.
        out.splice(previous.at, previous.count);
        // "… exclusivity [1]. Tax credits …" loses its badge, not its spacing: no "exclusivity ."
        const before = out[previous.at - 1];
        const after = out[previous.at];
        if (before && after && isText(before) && isText(after) && /^[.,;:!?]/.test(after.value)) {
          before.value = before.value.replace(/\s+$/, "");
        }
        quotes = [...previous.quotes, quote];
      }
      const first = out.length;
      numbers.forEach((n, i) => {
        if (i > 0) out.push({ type: "text", value: " " });
        out.push({
          type: "element",
          tagName: "citation",
          properties: { dataN: String(n), dataQuote: quotes.join(QUOTE_SEPARATOR) },
          children: [{ type: "text", value: `[${n}]` }],
        });
      });
      previous = { key, at: first, count: out.length - first, quotes };
      since = "";
      last = at + match[0].length;
    }
    const rest = child.value.slice(last);
    if (rest) out.push(last === 0 ? child : { type: "text", value: rest });
    since += rest;
  }
  parent.children = out;
}

export interface PassagePiece {
  text: string;
  cited: boolean;
}

const normalize = (s: string) => s.replace(/\s+/g, " ").trim();

/**
 * Splits a passage around the quoted sentence so it can be highlighted; when the quote is not
 * found word for word (a model paraphrased), the whole passage is the cited part.
 */
export function highlightPassage(passage: string, quote: string | undefined): PassagePiece[] {
  const text = normalize(passage);
  const lower = text.toLowerCase();
  const ranges: [number, number][] = [];
  for (const line of (quote ?? "").split(QUOTE_SEPARATOR)) {
    const q = normalize(line.replace(/^[-*•>\s]+/, ""));
    if (q.length < 12) continue;
    const at = lower.indexOf(q.toLowerCase());
    if (at >= 0) ranges.push([at, at + q.length]);
  }
  if (ranges.length === 0) return [{ text, cited: true }];
  ranges.sort((a, b) => a[0] - b[0]);
  const pieces: PassagePiece[] = [];
  let cursor = 0;
  for (const [start, end] of ranges) {
    if (end <= cursor) continue;
    const from = Math.max(start, cursor);
    if (from > cursor) pieces.push({ text: text.slice(cursor, from), cited: false });
    const last = pieces.at(-1);
    // Two quoted sentences that touch, or only a space apart, read as one highlight.
    if (last?.cited && from === cursor) last.text += text.slice(from, end);
    else pieces.push({ text: text.slice(from, end), cited: true });
    cursor = end;
  }
  if (cursor < text.length) pieces.push({ text: text.slice(cursor), cited: false });
  return pieces;
}
