import { beforeAll, describe, expect, it } from "vitest";
import * as chunksRoute from "@/app/api/knowledge/documents/[id]/chunks/route";
import * as documentsRoute from "@/app/api/knowledge/documents/route";
import * as sessionRoute from "@/app/api/session/route";
import { documentOverview } from "@/lib/rag";
import type { KnowledgeChunk } from "@/lib/rag/contract";
import { appTargets } from "../support/databases";
import { call, cookieHeader } from "../support/http";
import { seededDatabase } from "../support/seeded";
import { minimalPdf } from "./pdf";

// The document viewer's API: a document's chunks in order, a page at a time, and its outline.

const SECTIONS = 130;

/** A manual with many short sections, so its chunks (one per section) span several pages of the API. */
function longManual(): string {
  const parts = ["# Line maintenance manual", "", "Read this before any task on the line.", ""];
  for (let i = 1; i <= SECTIONS; i++) {
    parts.push(`## Task ${i}`, "", `Step ${i}: inspect valve ${i} and record its pressure in the log.`, "");
  }
  parts.push("## Task 1", "", "The first task again, checked once more at the end of the shift.", "");
  return parts.join("\n");
}

function form(fields: Record<string, string | File>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.append(key, value);
  return data;
}

for (const target of appTargets()) {
  describe(`document viewer API on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });
    const cookies: Record<string, string> = {};
    let manualId = "";
    let pdfId = "";

    beforeAll(async () => {
      for (const email of ["admin@demo.local", "expert@demo.local", "expert@acme.local"]) {
        const res = await call(sessionRoute.POST, { method: "POST", body: { email, password: "vigil-demo" } });
        expect(res.status).toBe(200);
        cookies[email] = cookieHeader(res);
      }
      const manual = await call(documentsRoute.POST, {
        method: "POST",
        body: { title: "Line maintenance manual", text: longManual(), format: "markdown", domains: ["quality"] },
        headers: { cookie: cookies["admin@demo.local"] },
      });
      expect(manual.status, JSON.stringify(manual.body)).toBe(201);
      manualId = (manual.body.document as { id: string }).id;
      const pdf = await call(documentsRoute.POST, {
        method: "POST",
        rawBody: form({
          file: new File(
            [minimalPdf([["Cover page."], ["Storage between two and eight degrees."], ["Shipping on dry ice."]])],
            "storage.pdf",
            { type: "application/pdf" },
          ),
          domains: "quality",
        }),
        headers: { cookie: cookies["admin@demo.local"] },
      });
      expect(pdf.status, JSON.stringify(pdf.body)).toBe(201);
      pdfId = (pdf.body.document as { id: string }).id;
    });

    const chunks = (id: string, query = "", who = "expert@demo.local") =>
      call(chunksRoute.GET, {
        path: `/api/knowledge/documents/${id}/chunks${query}`,
        params: { id },
        headers: { cookie: cookies[who] },
      });

    it("pages through every chunk in order, each once, for a member too", async () => {
      const seen: KnowledgeChunk[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res = await chunks(manualId, `?limit=40${cursor ? `&cursor=${cursor}` : ""}`);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body.status).toBe("success");
        const items = res.body.items as KnowledgeChunk[];
        expect(items.length).toBeLessThanOrEqual(40);
        seen.push(...items);
        cursor = res.body.nextCursor as string | null;
        pages++;
      } while (cursor && pages < 20);
      // One chunk before the first task, one per task, one for the repeated heading.
      expect(seen).toHaveLength(SECTIONS + 2);
      expect(pages).toBe(Math.ceil((SECTIONS + 2) / 40));
      expect(seen.map((c) => c.ord)).toEqual(seen.map((_, i) => i));
      expect(Object.keys(seen[0]).sort()).toEqual(["id", "ord", "page", "section", "text", "tokenCount"]);
      expect(seen[0]).toMatchObject({ section: null, page: null, text: "Read this before any task on the line." });
      expect(seen[7]).toMatchObject({ section: "Task 7", text: expect.stringContaining("valve 7") });

      const first = await chunks(manualId);
      expect((first.body.items as KnowledgeChunk[]).length).toBe(50);
    });

    it("outlines the sections in order, a heading that comes back as a section of its own", async () => {
      const overview = await documentOverview({ tenantId: suite.tenants.demo }, manualId);
      expect(overview.document).toMatchObject({ id: manualId, title: "Line maintenance manual", status: "ready" });
      expect(overview.pageCount).toBeNull();
      expect(overview.sections).toHaveLength(SECTIONS + 2);
      expect(overview.sections[0]).toEqual({
        section: null,
        firstOrd: 0,
        lastOrd: 0,
        chunkCount: 1,
        firstPage: null,
        lastPage: null,
      });
      expect(overview.sections[1]).toMatchObject({ section: "Task 1", firstOrd: 1, chunkCount: 1 });
      expect(overview.sections.at(-1)).toMatchObject({ section: "Task 1", firstOrd: SECTIONS + 1 });
    });

    it("gives a PDF's chunks their pages and the document its page count", async () => {
      const res = await chunks(pdfId);
      const items = res.body.items as KnowledgeChunk[];
      expect(items.map((c) => [c.page, c.text])).toEqual([
        [1, "Cover page."],
        [2, "Storage between two and eight degrees."],
        [3, "Shipping on dry ice."],
      ]);
      expect(res.body.nextCursor).toBeNull();
      const overview = await documentOverview({ tenantId: suite.tenants.demo }, pdfId);
      expect(overview.pageCount).toBe(3);
      expect(overview.sections).toEqual([
        { section: null, firstOrd: 0, lastOrd: 2, chunkCount: 3, firstPage: 1, lastPage: 3 },
      ]);
    });

    it("continues after a cursor, and an exhausted cursor gives an empty last page", async () => {
      const res = await chunks(manualId, "?cursor=125&limit=10");
      expect((res.body.items as KnowledgeChunk[]).map((c) => c.ord)).toEqual([126, 127, 128, 129, 130, 131]);
      expect(res.body.nextCursor).toBeNull();
      const past = await chunks(manualId, "?cursor=999");
      expect([past.status, past.body.items, past.body.nextCursor]).toEqual([200, [], null]);
    });

    it("answers 404 for an unknown id and for another tenant's document", async () => {
      for (const [id, who] of [
        ["00000000-0000-4000-8000-000000000000", "expert@demo.local"],
        [manualId, "expert@acme.local"],
      ] as const) {
        const res = await chunks(id, "", who);
        expect([res.status, res.body.status]).toEqual([404, "not_found"]);
        expect(res.body.items).toBeUndefined();
      }
      await expect(documentOverview({ tenantId: suite.tenants.acme }, manualId)).rejects.toThrow(/not found/);
    });

    it("refuses bad parameters with 400 VALIDATION_FAILED naming the field, and strangers with 401", async () => {
      for (const [id, query, field] of [
        ["not-a-uuid", "", ""],
        [manualId, "?limit=0", "limit"],
        [manualId, "?limit=201", "limit"],
        [manualId, "?limit=ten", "limit"],
        [manualId, "?cursor=-1", "cursor"],
        [manualId, "?cursor=abc", "cursor"],
        [manualId, "?cursor=1.5", "cursor"],
        [manualId, "?cursor=99999999999", "cursor"],
      ] as const) {
        const res = await chunks(id, query);
        expect([query, res.status, res.body.status, res.body.code]).toEqual([query, 400, "error", "VALIDATION_FAILED"]);
        if (field) expect((res.body.details as { path: string }[]).map((d) => d.path)).toContain(field);
      }
      const anonymous = await call(chunksRoute.GET, {
        path: `/api/knowledge/documents/${manualId}/chunks`,
        params: { id: manualId },
      });
      expect([anonymous.status, anonymous.body.code]).toEqual([401, "UNAUTHENTICATED"]);
    });
  });
}
