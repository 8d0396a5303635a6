import type { Block } from "./blocks";

const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*#*[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const SETEXT_H1 = /^ {0,3}=+[ \t]*$/;
const SETEXT_H2 = /^ {0,3}-+[ \t]*$/;

/** Heading text without inline markup, so the section path reads as plain words. */
export function plainHeading(text: string): string {
  return text
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[*_`]+/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

export interface ParsedMarkdown {
  /** The first level-1 heading, if any. */
  title: string | null;
  blocks: Block[];
}

/**
 * Splits Markdown into paragraphs, each with the heading path above it. Code fences stay whole
 * (a `#` inside them is not a heading); the paragraph text keeps its Markdown so a cited passage
 * reads as written.
 */
export function parseMarkdown(source: string, options: { pageBreak?: string } = {}): ParsedMarkdown {
  const lines = source.split("\n");
  const headings: string[] = [];
  const blocks: Block[] = [];
  let title: string | null = null;
  let paragraph: string[] = [];
  let fence: string | null = null;
  // With a page-break line (Word's explicit breaks), blocks are numbered by page from 1.
  let page: number | null = options.pageBreak === undefined ? null : 1;

  const flush = () => {
    const text = paragraph.join("\n").trim();
    if (text) blocks.push({ headings: [...headings], page, text });
    paragraph = [];
  };
  const heading = (level: number, raw: string) => {
    const text = plainHeading(raw);
    if (!text) return;
    if (level === 1 && title === null && blocks.length === 0) title = text;
    headings.length = Math.min(headings.length, level - 1);
    while (headings.length < level - 1) headings.push("");
    headings.push(text);
  };

  for (const line of lines) {
    if (fence) {
      paragraph.push(line);
      if (line.trimStart().startsWith(fence)) {
        fence = null;
        flush();
      }
      continue;
    }
    if (page !== null && line === options.pageBreak) {
      flush();
      page++;
      continue;
    }
    const opening = FENCE.exec(line);
    if (opening) {
      flush();
      fence = opening[1];
      paragraph.push(line);
      continue;
    }
    const atx = ATX.exec(line);
    if (atx) {
      flush();
      heading(atx[1].length, atx[2] ?? "");
      continue;
    }
    // A single-line paragraph underlined with === or --- is a heading (setext style).
    if (paragraph.length === 1 && (SETEXT_H1.test(line) || SETEXT_H2.test(line))) {
      const text = paragraph[0];
      paragraph = [];
      heading(SETEXT_H1.test(line) ? 1 : 2, text);
      continue;
    }
    if (line.trim() === "") {
      flush();
      continue;
    }
    paragraph.push(line);
  }
  flush();
  return { title, blocks };
}

/** Plain text: paragraphs are separated by blank lines; there are no headings. */
export function parsePlainText(source: string): Block[] {
  return source
    .split(/\n[ \t]*\n/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((text) => ({ headings: [], page: null, text }));
}
