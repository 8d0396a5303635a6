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

/** Text of every page with `unpdf` (PDF.js), loaded only when a PDF arrives. */
export async function readPdf(bytes: Uint8Array): Promise<ParsedPdf> {
  const { extractText, getDocumentProxy, getMeta } = await import("unpdf");
  // PDF.js takes ownership of the buffer it is given; hand it a copy.
  const pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
  try {
    const { text } = await extractText(pdf, { mergePages: false });
    let title: string | null = null;
    try {
      const meta = await getMeta(pdf);
      const info = meta.info as { Title?: unknown } | undefined;
      if (typeof info?.Title === "string" && info.Title.trim()) title = info.Title.trim();
    } catch {
      // Metadata is optional; the text is what matters.
    }
    return { title, pages: text };
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
