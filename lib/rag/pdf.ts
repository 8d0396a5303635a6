import type { Block } from "./blocks";

export interface ParsedPdf {
  title: string | null;
  /** Text per page, in page order (index 0 is page 1). */
  pages: string[];
}

/** Starts with the PDF signature (a few producers put junk before it; the spec allows 1 KiB). */
export function looksLikePdf(bytes: Uint8Array): boolean {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 1024));
  return head.includes("%PDF-");
}

/** How much of a PDF is read: a small file can expand to a great deal of text (forms drawn thousands of times). */
export interface PdfLimits {
  maxPages: number;
  /** Characters of text over all pages. */
  maxCharacters: number;
}

/** Why a PDF was not read to the end: it has more pages, or more text, than the limits allow. */
export class PdfTooLarge extends Error {
  constructor(
    readonly limit: "pages" | "characters",
    readonly max: number,
  ) {
    super(`the PDF exceeds ${max} ${limit}`);
  }
}

interface TextItemLike {
  str?: string;
  hasEOL?: boolean;
}

/**
 * Text of every page with `unpdf` (PDF.js), loaded only when a PDF arrives. Pages are read one
 * after another as streams, counting characters as PDF.js produces them, so a PDF that expands
 * past the limit is stopped there rather than after all of its text sits in memory.
 */
export async function readPdf(bytes: Uint8Array, limits: PdfLimits): Promise<ParsedPdf> {
  const { getDocumentProxy, getMeta } = await import("unpdf");
  // PDF.js takes ownership of the buffer it is given; hand it a copy.
  const pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
  try {
    if (pdf.numPages > limits.maxPages) throw new PdfTooLarge("pages", limits.maxPages);
    const pages: string[] = [];
    let characters = 0;
    for (let number = 1; number <= pdf.numPages; number++) {
      const page = await pdf.getPage(number);
      const reader = page.streamTextContent().getReader();
      const parts: string[] = [];
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          for (const item of (value as { items: TextItemLike[] }).items) {
            if (item.str == null) continue;
            const text = item.hasEOL ? `${item.str}\n` : item.str;
            characters += text.length;
            if (characters > limits.maxCharacters) throw new PdfTooLarge("characters", limits.maxCharacters);
            parts.push(text);
          }
        }
      } catch (error) {
        // Stops PDF.js from producing the rest of the page.
        await reader.cancel().catch(() => {});
        throw error;
      } finally {
        page.cleanup();
      }
      pages.push(parts.join(""));
    }
    let title: string | null = null;
    try {
      const meta = await getMeta(pdf);
      const info = meta.info as { Title?: unknown } | undefined;
      if (typeof info?.Title === "string" && info.Title.trim()) title = info.Title.trim();
    } catch {
      // Metadata is optional; the text is what matters.
    }
    return { title, pages };
  } finally {
    await pdf.loadingTask.destroy();
  }
}

/**
 * Paragraphs of each page. Line breaks inside a PDF paragraph are layout, not meaning, so lines
 * are joined (and words hyphenated across a line end rejoined) before sentences are found.
 * PDF text has no headings we can trust: chunks of a PDF carry the page number instead.
 */
export function pdfBlocks(pages: string[]): Block[] {
  const blocks: Block[] = [];
  pages.forEach((pageText, index) => {
    for (const paragraph of pageText.split(/\n[ \t]*\n/)) {
      const text = paragraph
        .replace(/(\p{L})-\n(?=\p{Ll})/gu, "$1")
        .replace(/\s*\n\s*/g, " ")
        .trim();
      if (text) blocks.push({ headings: [], page: index + 1, text });
    }
  });
  return blocks;
}
