import { describe, expect, it } from "vitest";
import { minimalPdf } from "@/tests/rag/pdf";
import { CHUNK_MAX, chunkBlocks, sentencesOf } from "./chunking";
import { contentHashOf, extractDocument, normalizeText } from "./extract";
import { parseMarkdown } from "./markdown";
import { pdfBlocks } from "./pdf";

const sentence = (i: number) => `Sentence number ${i} explains one more detail of the submission process.`;
const paragraph = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => sentence(from + i)).join(" ");

describe("Markdown structure", () => {
  it("keeps the heading path of every paragraph and takes the first H1 as the title", () => {
    const parsed = parseMarkdown(
      [
        "# Device pathways",
        "",
        "Intro text.",
        "",
        "## 510(k)",
        "",
        "About clearance.",
        "",
        "### Special 510(k)",
        "",
        "About changes.",
        "",
        "## De *Novo*",
        "",
        "About novel devices.",
      ].join("\n"),
    );
    expect(parsed.title).toBe("Device pathways");
    expect(parsed.blocks.map((b) => [b.headings.filter(Boolean).join(" / "), b.text])).toEqual([
      ["Device pathways", "Intro text."],
      ["Device pathways / 510(k)", "About clearance."],
      ["Device pathways / 510(k) / Special 510(k)", "About changes."],
      ["Device pathways / De Novo", "About novel devices."],
    ]);
  });

  it("does not read a # inside a code fence as a heading, and knows setext headings", () => {
    const parsed = parseMarkdown(["Title", "=====", "", "```sh", "# not a heading", "```", "", "Text"].join("\n"));
    expect(parsed.title).toBe("Title");
    expect(parsed.blocks.map((b) => b.text)).toEqual(["```sh\n# not a heading\n```", "Text"]);
  });

  it("names sections below the title, so citations do not repeat it", () => {
    const { blocks, title } = parseMarkdown("# Guide\n\nIntro.\n\n## Citations\n\nBadges.\n\n## API keys\n\nKeys.");
    expect(chunkBlocks(blocks, title).map((c) => c.section)).toEqual([null, "Citations", "API keys"]);
  });
});

describe("chunking", () => {
  it("never exceeds the maximum and breaks only at sentence ends", () => {
    const text = paragraph(0, 60); // ~4,400 characters in one paragraph
    const chunks = chunkBlocks([{ headings: ["Long"], page: null, text }], null);
    expect(chunks.length).toBeGreaterThanOrEqual(4);
    for (const chunk of chunks) {
      expect(chunk.text.length).toBeLessThanOrEqual(CHUNK_MAX);
      expect(chunk.text.length).toBeGreaterThan(600);
      expect(chunk.text).toMatch(/^Sentence number \d+/);
      expect(chunk.text).toMatch(/process\.$/);
      expect(chunk.section).toBe("Long");
    }
    expect(chunks.map((c) => c.text).join(" ")).toBe(text);
    expect(chunks.map((c) => c.ord)).toEqual(chunks.map((_, i) => i));
  });

  it("splits a section slightly over the maximum into two similar halves", () => {
    const text = paragraph(0, 18); // ~1,330 characters
    const sizes = chunkBlocks([{ headings: [], page: null, text }], null).map((c) => c.text.length);
    expect(sizes).toHaveLength(2);
    expect(Math.abs(sizes[0] - sizes[1])).toBeLessThan(200);
  });

  it("keeps paragraphs together and never crosses a section or a page", () => {
    const chunks = chunkBlocks(
      [
        { headings: ["A"], page: null, text: "First paragraph." },
        { headings: ["A"], page: null, text: "Second paragraph." },
        { headings: ["B"], page: null, text: "Other section." },
        { headings: [], page: 1, text: "Page one." },
        { headings: [], page: 2, text: "Page two." },
      ],
      null,
    );
    expect(chunks.map((c) => [c.section, c.page, c.text])).toEqual([
      ["A", null, "First paragraph.\n\nSecond paragraph."],
      ["B", null, "Other section."],
      [null, 1, "Page one."],
      [null, 2, "Page two."],
    ]);
  });

  it("splits a run-on text without sentence ends at word breaks", () => {
    const text = Array.from({ length: 600 }, (_, i) => `word${i}`).join(" ");
    const chunks = chunkBlocks([{ headings: [], page: null, text }], null);
    for (const chunk of chunks) expect(chunk.text.length).toBeLessThanOrEqual(CHUNK_MAX);
    expect(chunks.map((c) => c.text).join(" ")).toBe(text);
  });

  it("does not end a sentence at a common abbreviation", () => {
    expect(sentencesOf("Use e.g. a placebo. Then report it.")).toEqual(["Use e.g. a placebo.", "Then report it."]);
  });
});

describe("extraction", () => {
  it("hashes normalised text, so line endings and trailing spaces do not make content new", async () => {
    const a = await extractDocument({ format: "markdown", content: "# T\n\nSame text.  \n", domains: ["x"] });
    const b = await extractDocument({ format: "markdown", content: "# T\r\n\r\n\r\nSame text.\r\n", domains: ["x"] });
    expect(a.contentHash).toBe(b.contentHash);
    expect(a.contentHash).toBe(contentHashOf(normalizeText("# T\n\nSame text.")));
    const c = await extractDocument({ format: "markdown", content: "# T\n\nOther text.", domains: ["x"] });
    expect(c.contentHash).not.toBe(a.contentHash);
  });

  it("titles a document named only by its file as words, not as the file's slug", async () => {
    const title = async (fileName: string, content = "No heading here, only text.") =>
      (await extractDocument({ format: "text", content, domains: ["x"], fileName })).title;
    expect(await title("uploads/lgv-troubleshooting.txt")).toBe("LGV troubleshooting");
    expect(await title("site_survey_2024.md")).toBe("Site survey 2024");
    // A name a person wrote keeps its own spelling.
    expect(await title("Dock Entrance Checklist.txt")).toBe("Dock Entrance Checklist");
    // A heading of its own is still the title.
    const md = await extractDocument({
      format: "markdown",
      content: "# LGV field guide\n\nText.",
      domains: ["x"],
      fileName: "lgv-guide.md",
    });
    expect(md.title).toBe("LGV field guide");
  });

  it("turns HTML headings into section paths and drops scripts, styles and link targets", async () => {
    const doc = await extractDocument({
      format: "html",
      domains: ["x"],
      content: `<html><head><title>Safety handbook</title><style>p{}</style></head><body>
        <h1>Safety handbook</h1><p>Intro with a <a href="https://example.com">link</a>.</p>
        <h2>Signals</h2><p>Disproportionality screens reports.</p><script>alert(1)</script>
        <h3>PRR</h3><p>A ratio of proportions.</p></body></html>`,
    });
    expect(doc.title).toBe("Safety handbook");
    expect(doc.chunks.map((c) => [c.section, c.text])).toEqual([
      [null, "Intro with a link."],
      ["Signals", "Disproportionality screens reports."],
      ["Signals › PRR", "A ratio of proportions."],
    ]);
  });

  it("reads a real PDF page by page, with the page number on each chunk", async () => {
    const pdf = minimalPdf(
      [
        ["Periodic safety reports are called PBRER", "since ICH E2C(R2) replaced the PSUR format."],
        ["MedDRA has five levels of terms."],
      ],
      "Safety handbook",
    );
    const doc = await extractDocument({ format: "pdf", content: pdf, domains: ["safety"] });
    expect(doc.title).toBe("Safety handbook");
    expect(doc.chunks.map((c) => [c.page, c.text])).toEqual([
      [1, "Periodic safety reports are called PBRER since ICH E2C(R2) replaced the PSUR format."],
      [2, "MedDRA has five levels of terms."],
    ]);
  });

  it("joins PDF lines and rejoins words hyphenated at a line end", () => {
    expect(pdfBlocks(["Adverse reac-\ntions are re-\nported.\n\nNext paragraph."]).map((b) => b.text)).toEqual([
      "Adverse reactions are reported.",
      "Next paragraph.",
    ]);
  });

  it("refuses empty documents, damaged PDFs and binary files posing as text", async () => {
    await expect(extractDocument({ format: "text", content: " \n\n ", domains: ["x"] })).rejects.toMatchObject({
      kind: "invalid",
      code: "EMPTY_DOCUMENT",
    });
    await expect(
      extractDocument({ format: "pdf", content: new Uint8Array([1, 2, 3]), domains: ["x"] }),
    ).rejects.toMatchObject({ kind: "invalid", code: "UNREADABLE_DOCUMENT" });
    await expect(
      extractDocument({ format: "text", content: new Uint8Array([0xff, 0xfe, 0x00, 0xd8]), domains: ["x"] }),
    ).rejects.toMatchObject({ kind: "unsupported_media" });
  });

  it("titles a plain text by its file name", async () => {
    const doc = await extractDocument({
      format: "text",
      content: "Line one.\n\nLine two.",
      domains: ["x"],
      fileName: "notes/sop-42.txt",
    });
    // The file's slug in words: "SOP 42", as the knowledge page and citations show it.
    expect(doc.title).toBe("SOP 42");
    expect(doc.chunks.map((c) => c.text)).toEqual(["Line one.\n\nLine two."]);
  });
});
