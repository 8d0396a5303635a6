import { createHash } from "node:crypto";
import { DomainError } from "@/lib/errors";
import { looksLikeSlug, readableName } from "@/lib/words";
import type { Block } from "./blocks";
import { type ChunkDraft, chunkBlocks } from "./chunking";
import {
  type DocumentInput,
  type KnowledgeFormat,
  MAX_CHUNKS_PER_DOCUMENT,
  PDF_MAX_CHARACTERS,
  PDF_MAX_PAGES,
} from "./contract";
import { docxToMarkdown, looksLikeDocx, PAGE_BREAK_LINE } from "./docx";
import { limitErrors } from "./extraction-limits";
import { htmlToMarkdown } from "./html";
import { parseMarkdown, parsePlainText } from "./markdown";
import { looksLikePdf, PdfTooLarge, pdfBlocks, readPdf } from "./pdf";

export interface ExtractedDocument {
  title: string;
  format: KnowledgeFormat;
  chunks: ChunkDraft[];
  /** sha256 (hex) of the normalised text: what makes two uploads "the same content". */
  contentHash: string;
  byteSize: number;
}

export const knowledgeErrors = {
  empty: () => new DomainError("invalid", "EMPTY_DOCUMENT", "The document contains no text to index."),
  unreadable: (format: string) =>
    new DomainError("invalid", "UNREADABLE_DOCUMENT", `The ${format} file could not be read; is it damaged?`),
  notText: () =>
    new DomainError(
      "unsupported_media",
      "UNSUPPORTED_MEDIA_TYPE",
      "The file is not UTF-8 text; send Markdown, text, HTML, PDF or Word (.docx).",
    ),
};

/**
 * One canonical form of text for hashing and indexing: Unicode NFC, LF line ends, no trailing
 * spaces, at most one blank line in a row. Layout noise (CRLF, a re-saved file) then does not
 * make the same content look new.
 */
export function normalizeText(text: string): string {
  return text
    .normalize("NFC")
    .replace(/\r\n?/g, "\n")
    .replace(/\u00a0/g, " ")
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

export function contentHashOf(normalized: string): string {
  return createHash("sha256").update(normalized, "utf8").digest("hex");
}

function decodeUtf8(content: string | Uint8Array): string {
  if (typeof content === "string") return content;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(content).replace(/^\uFEFF/, "");
  } catch {
    throw knowledgeErrors.notText();
  }
}

function titleFrom(...candidates: (string | null | undefined)[]): string {
  for (const candidate of candidates) {
    const title = candidate?.replace(/\s+/g, " ").trim();
    if (title) return title.slice(0, 300);
  }
  return "Untitled document";
}

/** A file's name as a title: `lgv-troubleshooting.md` reads "LGV troubleshooting", not the slug. */
function fileStem(fileName: string | undefined): string | undefined {
  const stem = fileName?.replace(/^.*[\\/]/, "").replace(/\.[^.]+$/, "");
  return stem && looksLikeSlug(stem) ? readableName(stem) : stem;
}

/** Text, chunks and identity of a document, before anything is written. */
export async function extractDocument(input: DocumentInput): Promise<ExtractedDocument> {
  const byteSize = typeof input.content === "string" ? Buffer.byteLength(input.content) : input.content.byteLength;
  let title: string;
  let blocks: Block[];
  let normalized: string;
  // The top heading names the document; chunk section paths start below it.
  let rootHeading: string | null = null;

  if (input.format === "pdf") {
    const bytes = typeof input.content === "string" ? Buffer.from(input.content, "latin1") : input.content;
    if (!looksLikePdf(bytes)) throw knowledgeErrors.unreadable("PDF");
    let parsed: Awaited<ReturnType<typeof readPdf>>;
    try {
      parsed = await readPdf(bytes, { maxPages: PDF_MAX_PAGES, maxCharacters: PDF_MAX_CHARACTERS });
    } catch (error) {
      if (error instanceof PdfTooLarge) throw error.limit === "pages" ? limitErrors.pages() : limitErrors.characters();
      throw knowledgeErrors.unreadable("PDF");
    }
    const pages = parsed.pages.map(normalizeText);
    blocks = pdfBlocks(pages);
    // Pages are joined with a form feed so that moving text across a page break is a change.
    normalized = pages.join("\f").trim();
    title = titleFrom(input.title, parsed.title, fileStem(input.fileName));
  } else if (input.format === "docx") {
    const bytes = typeof input.content === "string" ? Buffer.from(input.content, "latin1") : input.content;
    if (!looksLikeDocx(bytes)) throw knowledgeErrors.unreadable("Word");
    let docx: Awaited<ReturnType<typeof docxToMarkdown>>;
    try {
      docx = await docxToMarkdown(bytes);
    } catch {
      throw knowledgeErrors.unreadable("Word");
    }
    // The same bound on text as a PDF: a small archive can inflate to far more text than its size.
    if (docx.text.length > PDF_MAX_CHARACTERS) throw limitErrors.characters("Word document");
    normalized = normalizeText(docx.text);
    const parsed = parseMarkdown(normalized, docx.paged ? { pageBreak: PAGE_BREAK_LINE } : {});
    title = titleFrom(input.title, parsed.title, fileStem(input.fileName));
    blocks = parsed.blocks;
    rootHeading = parsed.title;
  } else if (input.format === "html") {
    const { title: htmlTitle, text } = htmlToMarkdown(decodeUtf8(input.content));
    normalized = normalizeText(text);
    const parsed = parseMarkdown(normalized);
    title = titleFrom(input.title, htmlTitle, parsed.title, fileStem(input.fileName));
    blocks = parsed.blocks;
    rootHeading = parsed.title;
  } else if (input.format === "markdown") {
    normalized = normalizeText(decodeUtf8(input.content));
    const parsed = parseMarkdown(normalized);
    title = titleFrom(input.title, parsed.title, fileStem(input.fileName));
    blocks = parsed.blocks;
    rootHeading = parsed.title;
  } else {
    normalized = normalizeText(decodeUtf8(input.content));
    blocks = parsePlainText(normalized);
    title = titleFrom(input.title, fileStem(input.fileName), blocks[0]?.text.split("\n")[0].slice(0, 120));
  }

  if (blocks.length === 0 || normalized.replace(/\f/g, "").trim() === "") throw knowledgeErrors.empty();
  const chunks = chunkBlocks(blocks, rootHeading);
  if (chunks.length > MAX_CHUNKS_PER_DOCUMENT) throw limitErrors.chunks();
  return {
    title,
    format: input.format,
    chunks,
    contentHash: contentHashOf(normalized),
    byteSize,
  };
}
