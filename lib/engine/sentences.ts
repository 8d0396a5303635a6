/**
 * Sentence splitting for extractive answers. Every sentence is an exact slice of the input
 * (`text.slice(start, end) === sentence.text`), so an answer built from them quotes its sources
 * verbatim. Knows the usual traps of technical prose: abbreviations ("e.g.", "Dr.", "approx."),
 * dotted acronyms ("U.S."), initials ("J. Smith"), decimals and section numbers ("3.5", "4.2.1"),
 * and Markdown structure (headings, list items and table rows are never joined to a sentence).
 */

export type SentenceKind = "sentence" | "heading" | "list-item" | "table-row";

export interface Sentence {
  text: string;
  start: number;
  end: number;
  kind: SentenceKind;
}

// A period after these does not end a sentence, whatever follows.
const ABBREVIATIONS = new Set(
  `al approx art c ca cf co corp dept dr e.g eg esp est fig figs i.e ie inc incl jr ltd mr mrs ms mt no nos p pp
  para paras prof ref refs resp sec secs sr st v vol vols vs jan feb mar apr jun jul aug sep sept oct nov dec min max
  abs abb bzw ca d.h dt evtl ggf hl inkl jh jhd jhs mio mrd nr s sog str tsd u.a usw vgl z.b z.t zzt`
    .split(/\s+/)
    .filter(Boolean),
);

// What follows a German ordinal ("8. Februar", "19. Jahrhundert", "2. Weltkrieg", "3. Platz").
const ORDINAL_NEXT =
  /^(?:Januar|Jänner|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember|Jahrhunderts?|Jahrtausends?|Weltkriegs?|Platz|Mal|Auflage|Klasse|Stock)\b/u;

const LIST_MARKER = /^(?:[-*+•]|\d{1,3}[.)]|[a-z][.)])\s+/i;
const HEADING = /^#{1,6}\s/;
const TABLE_ROW = /^\|/;

/** Splits text into sentences, headings, list items and table rows. */
export function splitSentences(text: string): Sentence[] {
  const out: Sentence[] = [];
  for (const block of blocksOf(text)) {
    if (block.kind === "heading" || block.kind === "table-row") {
      pushTrimmed(out, text, block.start, block.end, block.kind);
      continue;
    }
    // A list item may hold several sentences; each keeps the item's kind.
    let from = block.start;
    if (block.kind === "list-item") {
      from += text.slice(block.start, block.end).match(/^\s*/)?.[0].length ?? 0;
      from += text.slice(from, block.end).match(LIST_MARKER)?.[0].length ?? 0;
    }
    for (const cut of sentenceEnds(text, from, block.end)) {
      pushTrimmed(out, text, from, cut, block.kind);
      from = cut;
    }
    pushTrimmed(out, text, from, block.end, block.kind);
  }
  return out;
}

interface Block {
  start: number;
  end: number;
  kind: SentenceKind;
}

/**
 * Lines grouped into paragraphs: a blank line ends one, and a heading, list item or table row
 * is a block of its own (a list item continues on following indented lines).
 */
function blocksOf(text: string): Block[] {
  const blocks: Block[] = [];
  let current: Block | null = null;
  const lines = text.matchAll(/[^\n]*(?:\n|$)/g);
  for (const m of lines) {
    if (m[0] === "" && m.index >= text.length) break;
    const start = m.index;
    const end = start + m[0].replace(/\n$/, "").length;
    const line = text.slice(start, end);
    const trimmed = line.trim();
    if (!trimmed) {
      current = null;
      continue;
    }
    const kind: SentenceKind = HEADING.test(trimmed)
      ? "heading"
      : TABLE_ROW.test(trimmed)
        ? "table-row"
        : LIST_MARKER.test(trimmed)
          ? "list-item"
          : "sentence";
    const continues = current && kind === "sentence" && (current.kind === "sentence" || current.kind === "list-item");
    // A paragraph's first line that reads as a title (short, capitalised, no end mark) followed
    // by a capitalised line is a heading of its own: a document title is not glued onto the
    // first sentence of plain text.
    if (
      current &&
      continues &&
      current.kind === "sentence" &&
      isTitleLine(text.slice(current.start, current.end), trimmed)
    ) {
      current.kind = "heading";
      current = { start, end, kind };
      blocks.push(current);
      continue;
    }
    if (current && continues) {
      current.end = end;
      continue;
    }
    current = { start, end, kind };
    blocks.push(current);
    if (kind === "heading" || kind === "table-row") current = null;
  }
  return blocks;
}

/** At most this many words in a title line. */
const TITLE_WORDS = 10;

function isTitleLine(line: string, next: string): boolean {
  const trimmed = line.trim();
  if (trimmed.includes("\n")) return false;
  const words = trimmed.split(/\s+/).length;
  return words <= TITLE_WORDS && /^\p{Lu}/u.test(trimmed) && !/[.!?:;,…]$/u.test(trimmed) && /^\p{Lu}/u.test(next);
}

const TERMINATOR = /[.!?…]+["'”’)\]]*(?=\s|$)/g;

/** Offsets just after each sentence end inside [start, end). */
function sentenceEnds(text: string, start: number, end: number): number[] {
  const cuts: number[] = [];
  const segment = text.slice(start, end);
  for (const m of segment.matchAll(TERMINATOR)) {
    const at = m.index;
    const after = at + m[0].length;
    if (after >= segment.length) continue; // the block's own end
    if (!endsSentence(segment, at, m[0], after)) continue;
    cuts.push(start + after);
  }
  return cuts;
}

function endsSentence(segment: string, at: number, mark: string, after: number): boolean {
  const next = segment.slice(after).match(/^\s+(\S)/u)?.[1] ?? "";
  // A sentence starts with a capital, a digit, a quote or a bracket; "approx. twice" does not.
  if (!/[\p{Lu}\p{N}"'“‘([]/u.test(next)) return false;
  if (!mark.startsWith(".") || mark.startsWith("..")) return true;
  const word = segment.slice(0, at).match(/(\S+)$/)?.[1] ?? "";
  const bare = word.replace(/^["'“‘([]+/, "").toLowerCase();
  if (ABBREVIATIONS.has(bare)) return false;
  // Dotted acronyms (U.S., e.u.) and single initials (J. Smith).
  if (/^(?:\p{L}\.)+\p{L}$/u.test(bare) || /^\p{Lu}$/u.test(word)) return false;
  // German ordinals: "am 8. Februar 2007", "im 19. Jahrhundert" — a day or ordinal number before
  // a month or a counted noun is no sentence end.
  if (/^\d{1,2}$/.test(bare) && ORDINAL_NEXT.test(segment.slice(after).trimStart())) return false;
  return true;
}

function pushTrimmed(out: Sentence[], text: string, start: number, end: number, kind: SentenceKind): void {
  let s = start;
  let e = end;
  while (s < e && /\s/.test(text[s])) s++;
  while (e > s && /\s/.test(text[e - 1])) e--;
  if (e > s) out.push({ text: text.slice(s, e), start: s, end: e, kind });
}
