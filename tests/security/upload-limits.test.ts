import { deflateSync } from "node:zlib";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import * as documentsRoute from "@/app/api/knowledge/documents/route";
import * as sessionRoute from "@/app/api/session/route";
import { MAX_CHUNKS_PER_DOCUMENT, PDF_MAX_CHARACTERS, PDF_MAX_PAGES } from "@/lib/rag/contract";
import { minimalPdf } from "../rag/pdf";
import { knowledgeCounts } from "../rag/support";
import { appTargets } from "../support/databases";
import { call, cookieHeader } from "../support/http";
import { seededDatabase } from "../support/seeded";

/**
 * A PDF of a few kilobytes whose one page draws the same form of text `draws` times: PDF.js
 * extracts the form's text every time it is drawn, so the text is `draws` × `linesPerForm` lines
 * of 100 characters. The page's content stream is deflated: repetition compresses to nothing.
 */
function expandingPdf(draws: number, linesPerForm = 50): Uint8Array<ArrayBuffer> {
  const line = "Pallet twelve left the dock at noon and the scanner logged its weight twice in one hour.".padEnd(
    100,
    " x",
  );
  const form = ["BT", "/F1 9 Tf", "11 TL", "20 780 Td", ...Array(linesPerForm).fill(`(${line}) Tj T*`), "ET"].join(
    "\n",
  );
  const page = deflateSync(Buffer.from("q /X1 Do Q\n".repeat(draws), "latin1"));
  const objects: Buffer[] = [];
  const text = (s: string) => Buffer.from(s, "latin1");
  objects[1] = text("<< /Type /Catalog /Pages 2 0 R >>");
  objects[2] = text("<< /Type /Pages /Kids [5 0 R] /Count 1 >>");
  objects[3] = text("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>");
  objects[4] = text(
    `<< /Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Length ${form.length} >>\nstream\n${form}\nendstream`,
  );
  objects[5] = text(
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> /XObject << /X1 4 0 R >> >> /Contents 6 0 R >>",
  );
  objects[6] = Buffer.concat([
    text(`<< /Length ${page.length} /Filter /FlateDecode >>\nstream\n`),
    page,
    text("\nendstream"),
  ]);
  const parts: Buffer[] = [text("%PDF-1.4\n")];
  let size = parts[0].length;
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = size;
    const part = Buffer.concat([text(`${id} 0 obj\n`), objects[id], text("\nendobj\n")]);
    parts.push(part);
    size += part.length;
  }
  let tail = `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++) tail += `${String(offsets[id]).padStart(10, "0")} 00000 n \n`;
  tail += `trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${size}\n%%EOF\n`;
  parts.push(text(tail));
  return new Uint8Array(Buffer.concat(parts));
}

function form(fields: [string, string | File][]): FormData {
  const data = new FormData();
  for (const [key, value] of fields) data.append(key, value);
  return data;
}

for (const target of appTargets()) {
  describe(`knowledge uploads are bounded and refuse unstorable fields on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });
    let admin: Record<string, string> = {};

    beforeAll(async () => {
      const res = await call(sessionRoute.POST, {
        method: "POST",
        body: { email: "admin@demo.local", password: "vigil-demo" },
      });
      expect(res.status).toBe(200);
      admin = { cookie: cookieHeader(res) };
    });

    afterEach(() => {
      vi.unstubAllEnvs();
    });

    const upload = (fields: [string, string | File][]) =>
      call(documentsRoute.POST, { method: "POST", rawBody: form(fields), headers: admin });
    const md = (name = "sop.md") => new File(["# Cold chain\n\nReport an excursion within a day."], name);

    it("answers a NUL in a multipart file name or field with 400, naming it, and writes nothing", async () => {
      const before = await knowledgeCounts(suite.database);
      const cases: [string, [string, string | File][], string][] = [
        [
          "file name",
          [
            ["file", md("cold\u0000chain.md")],
            ["domains", "quality"],
          ],
          "file.filename",
        ],
        [
          "title",
          [
            ["file", md()],
            ["domains", "quality"],
            ["title", "Cold\u0000chain"],
          ],
          "title",
        ],
        [
          "externalId",
          [
            ["file", md()],
            ["domains", "quality"],
            ["externalId", "QMS\u00001"],
          ],
          "externalId",
        ],
        [
          "domains",
          [
            ["file", md()],
            ["domains", "qual\u0000ity"],
          ],
          "domains",
        ],
        [
          "field name",
          [
            ["file", md()],
            ["domains", "quality"],
            ["ti\u0000tle", "x"],
          ],
          "form",
        ],
      ];
      for (const [label, fields, path] of cases) {
        const res = await upload(fields);
        expect(res.status, `${label}: ${JSON.stringify(res.body)}`).toBe(400);
        expect(res.body, label).toMatchObject({
          status: "error",
          code: "VALIDATION_FAILED",
          details: [{ path, message: expect.stringContaining("NUL") }],
        });
      }
      expect(await knowledgeCounts(suite.database)).toEqual(before);
    });

    it("reads the expanding PDF in full while it stays within the limits: a few KB, 250,000 characters", async () => {
      const pdf = expandingPdf(50);
      expect(pdf.byteLength).toBeLessThan(10_000);
      const res = await upload([
        ["file", new File([pdf], "fifty.pdf", { type: "application/pdf" })],
        ["domains", "quality"],
      ]);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      // 50 draws × 50 lines of 100 characters, in chunks of at most 1,200.
      expect((res.body.document as { chunkCount: number }).chunkCount).toBeGreaterThan(200);
    });

    it(`refuses a document that makes more than ${MAX_CHUNKS_PER_DOCUMENT} chunks, with a clear message`, async () => {
      // One short section per heading: under a megabyte, one chunk each.
      const markdown = Array.from({ length: MAX_CHUNKS_PER_DOCUMENT + 10 }, (_, i) => `## S${i}\n\nx.\n`).join("\n");
      const before = await knowledgeCounts(suite.database);
      const res = await upload([
        ["file", new File([markdown], "sections.md", { type: "text/markdown" })],
        ["domains", "quality"],
      ]);
      expect(res.status, JSON.stringify(res.body)).toBe(413);
      expect(res.body).toMatchObject({ code: "DOCUMENT_TOO_LARGE", details: { limit: "chunks" } });
      expect(res.body.message).toMatch(/more than 50,000 passages; split it/);
      expect(await knowledgeCounts(suite.database)).toEqual(before);
    });

    it("stops a small PDF that expands past the character limit, quickly, with a clear message", async () => {
      // 2,000 draws × 50 lines × 100 characters: 10 million characters from a few kilobytes.
      const pdf = expandingPdf(2_000);
      expect(pdf.byteLength).toBeLessThan(20_000);
      const before = await knowledgeCounts(suite.database);
      const started = performance.now();
      const res = await upload([
        ["file", new File([pdf], "bomb.pdf", { type: "application/pdf" })],
        ["domains", "quality"],
      ]);
      const seconds = (performance.now() - started) / 1000;
      expect(res.status, JSON.stringify(res.body)).toBe(413);
      expect(res.body).toMatchObject({
        status: "error",
        code: "DOCUMENT_TOO_LARGE",
        details: { limit: "characters", max: PDF_MAX_CHARACTERS },
      });
      expect(res.body.message).toMatch(/more than 5,000,000 characters of text; split it/);
      // Unbounded, this PDF took over a minute and stored thousands of chunks.
      expect(seconds).toBeLessThan(30);
      expect(await knowledgeCounts(suite.database)).toEqual(before);
    });

    it(`refuses a PDF of more than ${PDF_MAX_PAGES} pages before reading them`, async () => {
      const pdf = minimalPdf(Array.from({ length: PDF_MAX_PAGES + 1 }, (_, i) => [`Page ${i + 1}.`]));
      const res = await upload([
        ["file", new File([pdf], "long.pdf", { type: "application/pdf" })],
        ["domains", "quality"],
      ]);
      expect(res.status, JSON.stringify(res.body)).toBe(413);
      expect(res.body).toMatchObject({ code: "DOCUMENT_TOO_LARGE", details: { limit: "pages", max: PDF_MAX_PAGES } });
    });

    it("gives up on an extraction that outlasts its deadline, and says so", async () => {
      vi.stubEnv("VIGIL_EXTRACT_TIMEOUT_MS", "300");
      const before = await knowledgeCounts(suite.database);
      const started = performance.now();
      const res = await upload([
        ["file", new File([expandingPdf(400)], "slow.pdf", { type: "application/pdf" })],
        ["domains", "quality"],
      ]);
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(res.body).toMatchObject({ code: "EXTRACTION_TIMEOUT", details: { timeout_ms: 300 } });
      expect(res.body.message).toMatch(/longer than 1 second; split it/);
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(await knowledgeCounts(suite.database)).toEqual(before);
    });

    it("still takes an ordinary PDF", async () => {
      const pdf = minimalPdf([["Cold chain", "Report an excursion within one working day."]], "Cold chain SOP");
      const res = await upload([
        ["file", new File([pdf], "cold-chain.pdf", { type: "application/pdf" })],
        ["domains", "quality"],
      ]);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.document).toMatchObject({ title: "Cold chain SOP", format: "pdf" });
    });
  });
}
