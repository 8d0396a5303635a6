import { Document, HeadingLevel, Packer, PageBreak, Paragraph, TextRun } from "docx";

// Real Word documents for tests, written with the `docx` package (what Word itself reads).

export type DocxPart = { heading: string; level: 1 | 2 | 3 } | { text: string } | { pageBreak: true };

const LEVELS = { 1: HeadingLevel.HEADING_1, 2: HeadingLevel.HEADING_2, 3: HeadingLevel.HEADING_3 } as const;

export async function wordDocument(parts: DocxPart[]): Promise<Uint8Array<ArrayBuffer>> {
  const children = parts.map((part) => {
    if ("heading" in part) return new Paragraph({ text: part.heading, heading: LEVELS[part.level] });
    if ("text" in part) return new Paragraph({ children: [new TextRun(part.text)] });
    return new Paragraph({ children: [new PageBreak()] });
  });
  return new Uint8Array(await Packer.toBuffer(new Document({ sections: [{ children }] })));
}
