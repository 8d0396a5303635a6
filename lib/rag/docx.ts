import { htmlToMarkdown } from "./html";

// Word documents (.docx) through mammoth: to HTML with headings as <h1>…<h6> (mammoth maps
// Word's heading styles), then the HTML path, so a Word heading becomes a section exactly as an
// HTML or Markdown heading does. Word has no fixed pages — where a page ends depends on the
// printer, fonts and window — so the only page boundaries that belong to the document are its
// explicit page breaks; those are kept, and a document without any has no page numbers.

/** The line that stands for an explicit page break in the Markdown handed to the parser. */
export const PAGE_BREAK_LINE = "\f";

/** A .docx is a ZIP archive: it starts with a local file header. */
export function looksLikeDocx(bytes: Uint8Array): boolean {
  return bytes.length > 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

export interface DocxText {
  /** Markdown-flavoured text; explicit page breaks are lines of a lone form feed. */
  text: string;
  /** Whether the document has explicit page breaks (then its blocks carry page numbers). */
  paged: boolean;
}

/** The text of a Word document with its headings and explicit page breaks. */
export async function docxToMarkdown(bytes: Uint8Array): Promise<DocxText> {
  // Loaded on the first Word document: every process that imports the server paid for it
  // (about 0.3 s of CPU), and most never read one.
  const { default: mammoth } = await import("mammoth");
  const { value: html } = await mammoth.convertToHtml(
    { buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) },
    // mammoth drops page breaks unless told what to make of them; a rule is easy to split on
    // (mammoth writes no other <hr>).
    { styleMap: ["br[type='page'] => hr"] },
  );
  const pages = html.split(/<hr\s*\/?>/i);
  // A break inside a paragraph splits its tags between two pages; html-to-text reads such
  // fragments as the text they hold.
  const text = pages.map((page) => htmlToMarkdown(page).text).join(`\n\n${PAGE_BREAK_LINE}\n\n`);
  return { text, paged: pages.length > 1 };
}
