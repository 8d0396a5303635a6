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

function walk(parent: HastNode) {
  if (!parent.children) return;
  if (isElement(parent) && SKIP.has(parent.tagName)) return;
  let since = ""; // text since the previous citation in this block
  let quote = ""; // what the previous citation vouched for: `[2][3]` share one sentence
  const out: HastNode[] = [];
  for (const child of parent.children) {
    if (!isText(child)) {
      if (isElement(child) && !SKIP.has(child.tagName)) walk(child);
      out.push(child);
      since += textOf(child);
      continue;
    }
    let last = 0;
    for (const match of child.value.matchAll(CITATION)) {
      const at = match.index ?? 0;
      const before = child.value.slice(last, at);
      if (before) out.push({ type: "text", value: before });
      since += before;
      const sentence = lastSentence(since);
      if (/\w{2}/.test(sentence)) quote = sentence;
      const numbers = match[1].split(",").map((s) => Number(s.trim()));
      numbers.forEach((n, i) => {
        if (i > 0) out.push({ type: "text", value: " " });
        out.push({
          type: "element",
          tagName: "citation",
          properties: { dataN: String(n), dataQuote: quote },
          children: [{ type: "text", value: `[${n}]` }],
        });
      });
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
  const q = normalize((quote ?? "").replace(/^[-*•>\s]+/, ""));
  if (q.length >= 12) {
    const at = text.toLowerCase().indexOf(q.toLowerCase());
    if (at >= 0) {
      return [
        { text: text.slice(0, at), cited: false },
        { text: text.slice(at, at + q.length), cited: true },
        { text: text.slice(at + q.length), cited: false },
      ].filter((p) => p.text.length > 0);
    }
  }
  return [{ text, cited: true }];
}
