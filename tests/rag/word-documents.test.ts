import { beforeAll, describe, expect, it } from "vitest";
import * as documentsRoute from "@/app/api/knowledge/documents/route";
import * as sessionRoute from "@/app/api/session/route";
import { getDocument, ingestDocument, searchKnowledge } from "@/lib/rag";
import { DOCX_MEDIA_TYPE, PDF_MAX_CHARACTERS } from "@/lib/rag/contract";
import { appTargets } from "../support/databases";
import { call, cookieHeader } from "../support/http";
import { seededDatabase } from "../support/seeded";
import { wordDocument } from "./docx";
import { knowledgeCounts, newTenant } from "./support";

// Word documents through the real upload route and ingestion: headings become the sections of
// the chunks, explicit page breaks their pages, German text stays exact (umlauts, ß), and a
// damaged or inflating file is refused in the documented shape without writing anything.

const by = { createdBy: "test", embeddings: null };

const GERMAN_TEXT =
  "Die Aufsichtsbehörde prüft jährlich, ob die Grenzwerte der Strahlenschutzverordnung eingehalten werden.";
const ENGLISH_TEXT = "The supervisory authority checks every year whether the dose limits are respected.";

function upload(file: File, cookie: string) {
  const data = new FormData();
  data.append("file", file);
  data.append("domains", "quality");
  return call(documentsRoute.POST, { method: "POST", rawBody: data, headers: { cookie } });
}

for (const target of appTargets()) {
  describe(`Word documents on ${target.name}`, () => {
    const suite = seededDatabase(target);
    let cookie = "";

    beforeAll(async () => {
      const res = await call(sessionRoute.POST, {
        method: "POST",
        body: { email: "admin@demo.local", password: "vigil-demo" },
      });
      cookie = cookieHeader(res);
    });

    it("uploads a .docx through the route: headings become sections, text is exact, its language is German", async () => {
      const bytes = await wordDocument([
        { heading: "Strahlenschutz im Labor", level: 1 },
        { heading: "Zuständigkeit", level: 2 },
        { text: GERMAN_TEXT },
        { heading: "Überwachung", level: 2 },
        { heading: "Messgeräte", level: 3 },
        { text: "Dosimeter werden monatlich ausgewertet; Messwerte über 1 mSv sind sofort zu melden." },
      ]);
      const res = await upload(new File([bytes], "labor-strahlenschutz.docx", { type: DOCX_MEDIA_TYPE }), cookie);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const document = res.body.document as { id: string; title: string; format: string; language: string };
      expect(document).toMatchObject({ title: "Strahlenschutz im Labor", format: "docx", language: "de" });

      const { chunks } = await getDocument({ tenantId: suite.tenants.demo }, document.id);
      expect(chunks.map((c) => [c.section, c.page, c.text])).toEqual([
        ["Zuständigkeit", null, GERMAN_TEXT],
        [
          "Überwachung › Messgeräte",
          null,
          "Dosimeter werden monatlich ausgewertet; Messwerte über 1 mSv sind sofort zu melden.",
        ],
      ]);

      const { items } = await searchKnowledge(
        { tenantId: suite.tenants.demo },
        { query: "Wie oft werden Dosimeter ausgewertet?", k: 1 },
        { embeddings: null },
      );
      expect(items[0]).toMatchObject({ documentId: document.id, section: "Überwachung › Messgeräte" });
    });

    it("numbers pages by the document's explicit page breaks", async () => {
      const tenantId = await newTenant(suite.database, "docx-pages");
      const content = await wordDocument([
        { heading: "Field manual", level: 1 },
        { heading: "Scope", level: 2 },
        { text: ENGLISH_TEXT },
        { pageBreak: true },
        { text: "Records are kept for thirty years after the last exposure." },
        { heading: "Annex", level: 2 },
        { text: "The annex lists every measuring device by serial number." },
      ]);
      const { document } = await ingestDocument(
        { tenantId },
        { format: "docx", content, domains: ["quality"], fileName: "manual.docx" },
        by,
      );
      expect(document).toMatchObject({ title: "Field manual", language: "en", format: "docx" });
      const { chunks } = await getDocument({ tenantId }, document.id);
      expect(chunks.map((c) => [c.section, c.page, c.text])).toEqual([
        ["Scope", 1, ENGLISH_TEXT],
        ["Scope", 2, "Records are kept for thirty years after the last exposure."],
        ["Annex", 2, "The annex lists every measuring device by serial number."],
      ]);
    });

    it("refuses a damaged or inflating .docx with the documented error and writes nothing", async () => {
      const before = await knowledgeCounts(suite.database);
      const valid = await wordDocument([{ text: ENGLISH_TEXT }]);
      // A ZIP whose central directory is cut off: the start looks like a Word file, the rest is not.
      const truncated = valid.slice(0, Math.floor(valid.length / 2));
      // A few kilobytes that inflate past the text limit.
      const inflating = await wordDocument([
        { text: "Strahlenschutz ".repeat(Math.ceil(PDF_MAX_CHARACTERS / 15) + 1) },
      ]);
      expect(inflating.length).toBeLessThan(PDF_MAX_CHARACTERS / 50);
      const cases: [string, File, number, string][] = [
        ["not a ZIP at all", new File(["Dies ist kein Word-Dokument."], "x.docx"), 400, "UNREADABLE_DOCUMENT"],
        ["a truncated archive", new File([truncated], "x.docx", { type: DOCX_MEDIA_TYPE }), 400, "UNREADABLE_DOCUMENT"],
        ["an archive that inflates too far", new File([inflating], "x.docx"), 413, "DOCUMENT_TOO_LARGE"],
      ];
      for (const [label, file, status, code] of cases) {
        const res = await upload(file, cookie);
        expect([label, res.status, res.body.status, res.body.code]).toEqual([label, status, "error", code]);
      }
      expect(await knowledgeCounts(suite.database)).toEqual(before);
    }, 60_000);
  });
}
