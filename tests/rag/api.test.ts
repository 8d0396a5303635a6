import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as documentRoute from "@/app/api/knowledge/documents/[id]/route";
import * as documentsRoute from "@/app/api/knowledge/documents/route";
import * as searchRoute from "@/app/api/knowledge/search/route";
import * as sessionRoute from "@/app/api/session/route";
import { rowsOf } from "@/lib/db";
import { KNOWLEDGE_CORPUS } from "@/lib/demo";
import { MAX_UPLOAD_BYTES } from "@/lib/rag";
import type { SearchHit } from "@/lib/rag/contract";
import { appTargets } from "../support/databases";
import { call, cookieHeader } from "../support/http";
import { seededDatabase } from "../support/seeded";
import { minimalPdf } from "./pdf";
import { knowledgeCounts } from "./support";

const MiB = 1024 * 1024;

function form(fields: Record<string, string | File | string[]>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    for (const v of Array.isArray(value) ? value : [value]) data.append(key, v);
  }
  return data;
}

type Hit = SearchHit;

for (const target of appTargets()) {
  describe(`knowledge API on ${target.name}`, () => {
    const suite = seededDatabase(target);
    const cookies: Record<string, string> = {};

    beforeAll(async () => {
      for (const email of ["admin@demo.local", "expert@demo.local", "admin@acme.local", "expert@acme.local"]) {
        const res = await call(sessionRoute.POST, { method: "POST", body: { email, password: "vigil-demo" } });
        expect(res.status).toBe(200);
        cookies[email] = cookieHeader(res);
      }
    });

    const demoAdmin = () => ({ cookie: cookies["admin@demo.local"] });
    const search = (query: string, who = "expert@demo.local") =>
      call(searchRoute.GET, { path: `/api/knowledge/search?${query}`, headers: { cookie: cookies[who] } });

    it("uploads a Markdown file as multipart, and the same file again is a no-op", async () => {
      const file = new File(
        ["# Cold chain\n\n## Excursions\n\nA temperature excursion must be reported within one working day."],
        "cold-chain.md",
        { type: "text/markdown" },
      );
      const first = await call(documentsRoute.POST, {
        method: "POST",
        rawBody: form({ file, domains: "quality, safety", title: "Cold chain SOP" }),
        headers: demoAdmin(),
      });
      expect(first.status, JSON.stringify(first.body)).toBe(201);
      expect(first.body).toMatchObject({
        status: "success",
        created: true,
        document: { title: "Cold chain SOP", format: "markdown", domains: ["quality", "safety"], chunkCount: 1 },
      });
      const before = await knowledgeCounts(suite.database);
      const again = await call(documentsRoute.POST, {
        method: "POST",
        rawBody: form({ file, domains: "quality" }),
        headers: demoAdmin(),
      });
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({
        created: false,
        document: { id: (first.body.document as { id: string }).id },
      });
      expect(await knowledgeCounts(suite.database)).toEqual(before);
    });

    it("uploads a PDF and cites its page", async () => {
      const pdf = new File(
        [minimalPdf([["Cover page."], ["Lyophilised vials are stored between two and eight degrees."]], "Storage")],
        "storage.pdf",
        { type: "application/pdf" },
      );
      const res = await call(documentsRoute.POST, {
        method: "POST",
        rawBody: form({ file: pdf, domains: ["quality"] }),
        headers: demoAdmin(),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const found = await search("q=lyophilised%20vials%20storage&k=1");
      expect((found.body.items as Hit[])[0]).toMatchObject({ title: "Storage", page: 2 });
    });

    it("accepts JSON from programs", async () => {
      const res = await call(documentsRoute.POST, {
        method: "POST",
        body: {
          title: "Deviation handling",
          text: "<h2>Minor deviations</h2><p>Minor deviations are closed by the shift lead.</p>",
          format: "html",
          domains: ["quality"],
          externalId: "QMS-12",
        },
        headers: demoAdmin(),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.document).toMatchObject({ title: "Deviation handling", format: "html", externalId: "QMS-12" });
    });

    it("refuses bad uploads in the error shape and writes nothing", async () => {
      const before = await knowledgeCounts(suite.database);
      const json = (body: unknown) => ({ body, headers: demoAdmin() });
      const multipart = (fields: Record<string, string | File | string[]>) => ({
        rawBody: form(fields),
        headers: demoAdmin(),
      });
      const md = (text = "# T\n\nText.") => new File([text], "a.md", { type: "text/markdown" });
      const cases: [string, Parameters<typeof call>[1], number, string][] = [
        [
          "an image",
          multipart({
            file: new File([new Uint8Array([137, 80, 78, 71])], "x.png", { type: "image/png" }),
            domains: "quality",
          }),
          415,
          "UNSUPPORTED_MEDIA_TYPE",
        ],
        [
          "a .docx that is not a Word document",
          multipart({ file: new File(["x"], "x.docx"), domains: "quality" }),
          400,
          "UNREADABLE_DOCUMENT",
        ],
        [
          "binary posing as text",
          multipart({ file: new File([new Uint8Array([0xff, 0xfe, 0xfd])], "x.txt"), domains: "quality" }),
          415,
          "UNSUPPORTED_MEDIA_TYPE",
        ],
        [
          "a text/plain body",
          { rawBody: "hello", headers: { ...demoAdmin(), "content-type": "text/plain" } },
          415,
          "UNSUPPORTED_MEDIA_TYPE",
        ],
        [
          "a damaged PDF",
          multipart({ file: new File(["%PDF-1.4 garbage"], "x.pdf"), domains: "quality" }),
          400,
          "UNREADABLE_DOCUMENT",
        ],
        ["no file", multipart({ domains: "quality" }), 400, "VALIDATION_FAILED"],
        ["no domains", multipart({ file: md() }), 400, "VALIDATION_FAILED"],
        ["a bad domain name", multipart({ file: md(), domains: "Not A Domain!" }), 400, "VALIDATION_FAILED"],
        ["an empty file", multipart({ file: md("  \n\n "), domains: "quality" }), 400, "EMPTY_DOCUMENT"],
        [
          "empty JSON text",
          json({ title: "T", text: "", format: "text", domains: ["quality"] }),
          400,
          "VALIDATION_FAILED",
        ],
        [
          "blank JSON text",
          json({ title: "T", text: " \n ", format: "text", domains: ["quality"] }),
          400,
          "EMPTY_DOCUMENT",
        ],
        ["JSON pdf", json({ title: "T", text: "x", format: "pdf", domains: ["quality"] }), 400, "VALIDATION_FAILED"],
        ["JSON without title", json({ text: "x", format: "text", domains: ["quality"] }), 400, "VALIDATION_FAILED"],
        [
          "malformed JSON",
          { rawBody: "{", headers: { ...demoAdmin(), "content-type": "application/json" } },
          400,
          "INVALID_JSON",
        ],
        [
          "a declared multipart over 20 MiB",
          {
            rawBody: form({ file: md(), domains: "quality" }),
            headers: { ...demoAdmin(), "content-length": String(MAX_UPLOAD_BYTES + 2 * MiB) },
          },
          413,
          "PAYLOAD_TOO_LARGE",
        ],
        [
          "a declared JSON over 20 MiB",
          {
            rawBody: "{}",
            headers: {
              ...demoAdmin(),
              "content-type": "application/json",
              "content-length": String(MAX_UPLOAD_BYTES + 1),
            },
          },
          413,
          "PAYLOAD_TOO_LARGE",
        ],
      ];
      for (const [label, init, status, code] of cases) {
        const res = await call(documentsRoute.POST, { method: "POST", ...init });
        expect([label, res.status, res.body.status, res.body.code]).toEqual([label, status, "error", code]);
      }
      expect(await knowledgeCounts(suite.database)).toEqual(before);
    });

    it("refuses a file over 20 MiB while reading, whatever the headers say", async () => {
      const before = await knowledgeCounts(suite.database);
      // A body streamed without Content-Length: the limit is enforced as bytes arrive.
      const boundary = "vigil-test-boundary";
      const encoder = new TextEncoder();
      const head = encoder.encode(
        `--${boundary}\r\nContent-Disposition: form-data; name="domains"\r\n\r\nquality\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n`,
      );
      const block = new Uint8Array(MiB).fill(97);
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent === 0) controller.enqueue(head);
          if (sent < 22) controller.enqueue(block);
          else {
            controller.enqueue(encoder.encode(`\r\n--${boundary}--\r\n`));
            controller.close();
          }
          sent++;
        },
      });
      const req = new Request("http://localhost/api/knowledge/documents", {
        method: "POST",
        headers: { ...demoAdmin(), "content-type": `multipart/form-data; boundary=${boundary}` },
        body,
        duplex: "half",
      } as RequestInit);
      const streamed = await documentsRoute.POST(req, { params: Promise.resolve({}) } as never);
      expect(streamed.status).toBe(413);
      expect(sent).toBeLessThan(23);

      // A file just over the limit inside a body that is not: refused by the file's own size.
      const exact = new File([new Uint8Array(MAX_UPLOAD_BYTES + 1).fill(97)], "big.txt", { type: "text/plain" });
      const res = await call(documentsRoute.POST, {
        method: "POST",
        rawBody: form({ file: exact, domains: "quality" }),
        headers: demoAdmin(),
      });
      expect([res.status, res.body.code]).toEqual([413, "PAYLOAD_TOO_LARGE"]);
      expect(await knowledgeCounts(suite.database)).toEqual(before);
    });

    it("lets only admins write, and asks everyone for identity", async () => {
      const before = await knowledgeCounts(suite.database);
      const body = { title: "T", text: "Member text.", format: "text", domains: ["quality"] };
      const member = await call(documentsRoute.POST, {
        method: "POST",
        body,
        headers: { cookie: cookies["expert@demo.local"] },
      });
      expect([member.status, member.body.code]).toEqual([403, "FORBIDDEN"]);
      const anonymous = await call(documentsRoute.POST, { method: "POST", body });
      expect(anonymous.status).toBe(401);
      const anonymousSearch = await call(searchRoute.GET, { path: "/api/knowledge/search?q=fda" });
      expect(anonymousSearch.status).toBe(401);
      const [doc] = rowsOf<{ id: string }>(
        await suite.database.db.execute(
          sql`select id from knowledge_documents where tenant_id = ${suite.tenants.demo} limit 1`,
        ),
      );
      const memberDelete = await call(documentRoute.DELETE, {
        method: "DELETE",
        params: { id: doc.id },
        headers: { cookie: cookies["expert@demo.local"] },
      });
      expect(memberDelete.status).toBe(403);
      expect(await knowledgeCounts(suite.database)).toEqual(before);
    });

    it("lists documents a page at a time, newest first", async () => {
      const seen: string[] = [];
      const times: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const path: string = `/api/knowledge/documents?limit=7${cursor ? `&cursor=${cursor}` : ""}`;
        const res = await call(documentsRoute.GET, { path, headers: { cookie: cookies["expert@demo.local"] } });
        expect(res.status).toBe(200);
        const items = res.body.items as { id: string; createdAt: string }[];
        expect(items.length).toBeLessThanOrEqual(7);
        seen.push(...items.map((d) => d.id));
        times.push(...items.map((d) => d.createdAt));
        cursor = res.body.nextCursor as string | null;
        pages++;
      } while (cursor && pages < 50);
      const total = rowsOf<{ n: number }>(
        await suite.database.db.execute(
          sql`select count(*)::int as n from knowledge_documents where tenant_id = ${suite.tenants.demo}`,
        ),
      )[0].n;
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen.length).toBe(total);
      expect([...times].sort().reverse()).toEqual(times);

      const guide = await call(documentsRoute.GET, {
        path: "/api/knowledge/documents?domain=guide&limit=100",
        headers: { cookie: cookies["expert@demo.local"] },
      });
      expect((guide.body.items as { domains: string[] }[]).map((d) => d.domains)).toEqual(
        KNOWLEDGE_CORPUS.demo.filter((d) => d.domains.includes("guide")).map(() => ["guide"]),
      );
      const bad = await call(documentsRoute.GET, {
        path: "/api/knowledge/documents?cursor=not-a-cursor",
        headers: { cookie: cookies["expert@demo.local"] },
      });
      expect([bad.status, bad.body.code]).toEqual([400, "VALIDATION_FAILED"]);
    });

    it("shows a document with its chunks, deletes it, and forgets it in search", async () => {
      const created = await call(documentsRoute.POST, {
        method: "POST",
        body: { title: "Ephemeral", text: "Zyrtalon capsules are withdrawn.", format: "text", domains: ["safety"] },
        headers: demoAdmin(),
      });
      const id = (created.body.document as { id: string }).id;
      const shown = await call(documentRoute.GET, {
        params: { id },
        headers: { cookie: cookies["expert@demo.local"] },
      });
      expect(shown.status).toBe(200);
      expect(shown.body).toMatchObject({
        document: { id, chunkCount: 1 },
        chunks: [{ ord: 0, text: "Zyrtalon capsules are withdrawn." }],
      });
      expect(((await search("q=zyrtalon")).body.items as Hit[]).map((h) => h.documentId)).toEqual([id]);

      const deleted = await call(documentRoute.DELETE, { method: "DELETE", params: { id }, headers: demoAdmin() });
      expect(deleted.status).toBe(200);
      expect((await search("q=zyrtalon")).body.items).toEqual([]);
      const gone = await call(documentRoute.GET, { params: { id }, headers: demoAdmin() });
      expect([gone.status, gone.body.status]).toEqual([404, "not_found"]);
      const again = await call(documentRoute.DELETE, { method: "DELETE", params: { id }, headers: demoAdmin() });
      expect(again.status).toBe(404);
      const notUuid = await call(documentRoute.GET, { params: { id: "nope" }, headers: demoAdmin() });
      expect(notUuid.status).toBe(400);
    });

    it("answers another tenant's document with 404 and leaves it alone", async () => {
      const [doc] = rowsOf<{ id: string }>(
        await suite.database.db.execute(
          sql`select id from knowledge_documents where tenant_id = ${suite.tenants.demo} limit 1`,
        ),
      );
      const before = await knowledgeCounts(suite.database);
      const acme = { cookie: cookies["admin@acme.local"] };
      const read = await call(documentRoute.GET, { params: { id: doc.id }, headers: acme });
      expect([read.status, read.body.status]).toEqual([404, "not_found"]);
      const del = await call(documentRoute.DELETE, { method: "DELETE", params: { id: doc.id }, headers: acme });
      expect(del.status).toBe(404);
      expect(await knowledgeCounts(suite.database)).toEqual(before);
    });

    it("searches with citations' fields, best first, within the requested domains", async () => {
      const res = await search("q=510(k)%20premarket%20notification%20clearance&k=3");
      expect(res.status).toBe(200);
      const items = res.body.items as Hit[];
      expect(items).toHaveLength(3);
      expect(Object.keys(items[0]).sort()).toEqual(
        [
          "chunkId",
          "dataClassification",
          "documentId",
          "evidenceLevel",
          "externalId",
          "page",
          "score",
          "section",
          "text",
          "title",
        ].sort(),
      );
      expect(items[0]).toMatchObject({
        externalId: "fda-510k",
        title: "FDA 510(k) premarket notification",
        dataClassification: "public",
        // Unrated until someone grades the document.
        evidenceLevel: null,
      });
      expect(items.map((h) => h.score)).toEqual([...items.map((h) => h.score)].sort((a, b) => b - a));
      expect(res.body.retrieval).toBe("lexical");

      const scoped = await search("q=predicate%20device%20sample%20size&k=20&domain=clinical,guide");
      const allowed = new Set(
        KNOWLEDGE_CORPUS.demo
          .filter((d) => d.domains.some((x) => x === "clinical" || x === "guide"))
          .map((d) => d.slug),
      );
      expect((scoped.body.items as Hit[]).length).toBeGreaterThan(0);
      for (const hit of scoped.body.items as Hit[]) expect(allowed.has(hit.externalId ?? "")).toBe(true);
    });

    it("never returns a demo chunk to an acme user", async () => {
      const demoChunks = new Set(
        rowsOf<{ id: string }>(
          await suite.database.db.execute(sql`select id from knowledge_chunks where tenant_id = ${suite.tenants.demo}`),
        ).map((r) => r.id),
      );
      const acmeSlugs = new Set(KNOWLEDGE_CORPUS.acme.map((d) => d.slug));
      // Demo's own words, and acme's: acme sees only acme.
      for (const q of [
        "510(k) substantial equivalence predicate",
        "MedDRA preferred term",
        "revoke an API key",
        "CAPA root cause",
        "software bill of materials",
      ]) {
        for (const who of ["expert@acme.local", "admin@acme.local"]) {
          const res = await search(`q=${encodeURIComponent(q)}&k=50`, who);
          expect(res.status).toBe(200);
          for (const hit of res.body.items as Hit[]) {
            expect(demoChunks.has(hit.chunkId)).toBe(false);
            expect(acmeSlugs.has(hit.externalId ?? "")).toBe(true);
          }
        }
      }
      const capa = await search("q=CAPA%20root%20cause&k=1", "expert@acme.local");
      expect((capa.body.items as Hit[])[0].externalId).toBe("acme-capa-procedure");
      const listed = await call(documentsRoute.GET, {
        path: "/api/knowledge/documents?limit=100",
        headers: { cookie: cookies["expert@acme.local"] },
      });
      expect((listed.body.items as { externalId: string }[]).every((d) => acmeSlugs.has(d.externalId))).toBe(true);
    });

    it("validates search parameters", async () => {
      for (const query of [
        "",
        "q=",
        "q=fda&k=0",
        "q=fda&k=51",
        "q=fda&k=two",
        "q=fda&domain=Bad!",
        `q=${"a".repeat(1001)}`,
      ]) {
        const res = await search(query);
        expect([query, res.status, res.body.code]).toEqual([query, 400, "VALIDATION_FAILED"]);
      }
    });
  });
}
