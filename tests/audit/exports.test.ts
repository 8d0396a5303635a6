import { createHash, randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import * as fileRoute from "@/app/api/audit/exports/[id]/file/route";
import * as exportRoute from "@/app/api/audit/exports/[id]/route";
import * as exportsRoute from "@/app/api/audit/exports/route";
import * as decisionRoute from "@/app/api/hitl/cases/[id]/decision/route";
import * as casesRoute from "@/app/api/hitl/cases/route";
import { type AuditReader, createAuditExport, runAuditExport, settleExports } from "@/lib/audit";
import type { AuditExport } from "@/lib/audit/contract";
import { rowsOf, schema } from "@/lib/db";
import { drainTrace, recordTrace, type TraceEvent } from "@/lib/trace";
import { ACME_ADMIN, ADMIN, caseBody, hitlClient, lgvPayload, MEMBER, REVIEWER, rid } from "../api-hitl/support";
import { appTargets } from "../support/databases";
import { seededDatabase, userIdOf } from "../support/seeded";

/** RFC 4180 read independently of the writer: quoted fields, doubled quotes, CRLF records. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = "";
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      record.push(field);
      field = "";
    } else if (ch === "\r" && text[i + 1] === "\n") {
      record.push(field);
      records.push(record);
      record = [];
      field = "";
      i += 1;
    } else field += ch;
  }
  expect(field, "the file ends with a record's line break").toBe("");
  expect(record).toEqual([]);
  return records;
}

/** CSV records as objects keyed by the header line. */
function csvObjects(text: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(text);
  for (const row of rows) expect(row).toHaveLength(header.length);
  return rows.map((row) => Object.fromEntries(header.map((h, i) => [h, row[i]])));
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

// Fixture events live in June 2019, before anything the seed or other suites write.
const JUNE = Date.parse("2019-06-01T00:00:00Z");
const DAY = 86_400_000;

for (const target of appTargets()) {
  describe(`audit exports on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });
    const client = hitlClient();
    const ids = { run: randomUUID(), privateRun: randomUUID() };
    let reader: AuditReader;

    let made: Promise<void> | undefined;
    const fixture = () => {
      made ??= makeFixture();
      return made;
    };

    async function makeFixture() {
      const demo = suite.tenants.demo;
      const memberId = await userIdOf(suite.database, MEMBER);
      const adminId = await userIdOf(suite.database, ADMIN);
      reader = { tenantId: demo, userId: adminId, privateWorkflows: ["ask-expert"] };
      const run = (id: string, workflow: string, createdBy: string) => ({
        id,
        tenantId: demo,
        workflow,
        threadId: `export-fixture-${id}`,
        status: "completed" as const,
        input: { goal: "fixture" },
        createdBy,
        createdAt: new Date(JUNE),
      });
      await suite.database.db
        .insert(schema.runs)
        .values([run(ids.run, "autonomous", memberId), run(ids.privateRun, "ask-expert", memberId)]);
      // Ten days, three events a day; text with commas, quotes and line breaks on purpose.
      const events: TraceEvent[] = [];
      for (let day = 0; day < 10; day += 1) {
        for (let k = 0; k < 3; k += 1) {
          events.push({
            eventType: k === 0 ? "node_start" : k === 1 ? "llm_call" : "node_error",
            runId: day === 4 ? ids.privateRun : ids.run,
            nodeName: `plan, "step" ${day}`,
            eventData: { note: `line one\nline "two", day ${day}`, k },
            tokensUsed: k === 1 ? 100 + day : null,
            costUsd: k === 1 ? 0.000123 * (day + 1) : null,
            success: k !== 2,
            error: k === 2 ? 'failed, "badly"\r\nagain' : null,
            phiAccessed: day === 7,
            phiFields: day === 7 ? ["patient_name", "dob"] : null,
            occurredAt: new Date(JUNE + day * DAY + k * 60_000),
          });
        }
      }
      await recordTrace({ tenantId: demo }, events);
      await recordTrace({ tenantId: suite.tenants.acme }, [{ eventType: "run_start", occurredAt: new Date(JUNE) }]);
      await drainTrace();
    }

    /** The tenant's chained trace as the owner reads it, independently of the export code. */
    async function traceRows(where = sql`true`) {
      return rowsOf<{
        seq: string;
        id: string;
        hash: string;
        prev_hash: string;
        event_type: string;
        node_name: string | null;
        event_error: string | null;
        tokens_used: number | null;
        cost: string | null;
        event_data: Record<string, unknown>;
        run_id: string | null;
        ts: string;
        phi_fields: string[] | null;
      }>(
        await suite.database.db.execute(sql`select t.seq::text as seq, id, hash, prev_hash, event_type, node_name,
            event_error, tokens_used, cost_usd::text as cost, event_data, run_id, phi_fields,
            (extract(epoch from event_timestamp) * 1000)::bigint::text as ts
          from execution_trace t where t.tenant_id = ${suite.tenants.demo} and ${where} order by t.seq`),
      );
    }

    async function request(email: string, body: unknown) {
      const res = await client.post(email, exportsRoute.POST, "/api/audit/exports", body);
      return res;
    }

    async function exportOf(email: string, id: string) {
      return client.get(email, exportRoute.GET, `/api/audit/exports/${id}`, { id });
    }

    /** Requests an export as the demo admin and waits until it is written. */
    async function exported(body: Record<string, unknown>): Promise<AuditExport> {
      const res = await request(ADMIN, body);
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      const id = res.body.id as string;
      await settleExports();
      const got = await exportOf(ADMIN, id);
      expect(got.status).toBe(200);
      return got.body as unknown as AuditExport;
    }

    async function download(email: string, id: string) {
      const req = new Request(`http://localhost/api/audit/exports/${id}/file`, {
        headers: { cookie: await client.cookieOf(email) },
      });
      const res = await fileRoute.GET(req, { params: Promise.resolve({ id }) });
      const bytes = new Uint8Array(await res.arrayBuffer());
      return { status: res.status, headers: res.headers, bytes, text: new TextDecoder().decode(bytes) };
    }

    async function storedParts(id: string) {
      return rowsOf<{ part: number; bytes: Uint8Array }>(
        await suite.database.db.execute(
          sql`select part, bytes from audit_export_parts where export_id = ${id}::uuid order by part`,
        ),
      );
    }

    it("writes the trace as CSV: the rows the test reads itself, a manifest whose hash is the file's", async () => {
      await fixture();
      const x = await exported({ kind: "trace", format: "csv" });
      expect(x.status).toBe("ready");
      const file = await download(ADMIN, x.id);
      expect(file.status).toBe(200);
      expect(file.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      expect(file.headers.get("content-disposition")).toMatch(/^attachment; filename="vigil-trace-\d{4}-\d{2}-\d{2}-/);
      const digest = sha256(file.bytes);
      expect(x.manifest?.sha256).toBe(digest);
      expect(file.headers.get("x-content-sha256")).toBe(digest);
      expect(x.manifest?.byteSize).toBe(file.bytes.length);
      const parts = await storedParts(x.id);
      expect(sha256(Buffer.concat(parts.map((p) => Buffer.from(p.bytes))))).toBe(digest);

      const expected = await traceRows();
      const rows = csvObjects(file.text);
      expect(x.manifest?.rowCount).toBe(expected.length);
      expect(rows.map((r) => [r.seq, r.id, r.prev_hash, r.hash, r.event_type])).toEqual(
        expected.map((e) => [e.seq, e.id, e.prev_hash, e.hash, e.event_type]),
      );
      expect(rows.map((r) => r.node_name)).toEqual(expected.map((e) => e.node_name ?? ""));
      expect(rows.map((r) => r.event_error)).toEqual(expected.map((e) => e.event_error ?? ""));
      expect(rows.map((r) => (r.tokens_used === "" ? null : Number(r.tokens_used)))).toEqual(
        expected.map((e) => e.tokens_used),
      );
      expect(rows.map((r) => (r.cost_usd === "" ? null : Number(r.cost_usd)))).toEqual(
        expected.map((e) => (e.cost === null ? null : Number(e.cost))),
      );
      expect(rows.map((r) => Date.parse(r.event_timestamp))).toEqual(expected.map((e) => Number(e.ts)));
      const last = expected[expected.length - 1];
      expect(x.manifest?.chainHead).toEqual({ seq: Number(last.seq), hash: last.hash });
      expect(x.manifest?.generatorVersion).toMatch(/^vigil-audit-export\//);
      expect(x.requestedBy.id).toBe(reader.userId);

      // A consultation's content stays its member's; the admin sees that it happened.
      const privateRows = rows.filter((r) => r.run_id === ids.privateRun);
      expect(privateRows).toHaveLength(3);
      for (const r of privateRows) expect([r.event_data, r.metadata, r.content_withheld]).toEqual(["", "", "true"]);
      const open = rows.filter((r) => r.run_id === ids.run);
      expect(open).toHaveLength(27);
      for (const r of open) {
        const original = expected.find((e) => e.id === r.id);
        expect(JSON.parse(r.event_data)).toEqual(original?.event_data);
        expect(r.content_withheld).toBe("false");
      }
      const phi = open.filter((r) => r.phi_accessed === "true");
      expect(phi).toHaveLength(3);
      for (const r of phi) expect(JSON.parse(r.phi_fields)).toEqual(["patient_name", "dob"]);
    });

    it("writes JSON that parses back, and keeps to the requested range", async () => {
      await fixture();
      const x = await exported({ kind: "trace", format: "json", from: "2019-06-03", to: "2019-06-05" });
      const file = await download(ADMIN, x.id);
      expect(file.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(sha256(file.bytes)).toBe(x.manifest?.sha256);
      const rows = JSON.parse(file.text) as Record<string, unknown>[];
      const from = Date.parse("2019-06-03T00:00:00Z");
      const to = Date.parse("2019-06-06T00:00:00Z") - 1;
      const expected = await traceRows(
        sql`event_timestamp >= ${new Date(from).toISOString()} and event_timestamp <= ${new Date(to).toISOString()}`,
      );
      expect(expected).toHaveLength(9);
      expect(rows.map((r) => r.id)).toEqual(expected.map((e) => e.id));
      expect(rows.map((r) => r.seq)).toEqual(expected.map((e) => Number(e.seq)));
      expect(x.range).toEqual({ from: new Date(from).toISOString(), to: new Date(to).toISOString() });
      expect(x.manifest?.rowCount).toBe(9);
      const last = expected[expected.length - 1];
      expect(x.manifest?.chainHead).toEqual({ seq: Number(last.seq), hash: last.hash });
      // Day 4 is the private run's.
      const withheld = rows.filter((r) => r.content_withheld === true);
      expect(withheld.map((r) => r.id)).toEqual(expected.filter((e) => e.run_id === ids.privateRun).map((e) => e.id));
      for (const r of withheld) expect(r.event_data).toBeNull();

      const empty = await exported({ kind: "trace", format: "json", to: "2001-01-01" });
      const none = await download(ADMIN, empty.id);
      expect(JSON.parse(none.text)).toEqual([]);
      expect(empty.manifest?.rowCount).toBe(0);
      expect(sha256(none.bytes)).toBe(empty.manifest?.sha256);
    });

    it("exports every decision and every case as the case log has them", async () => {
      await fixture();
      const caseIds: string[] = [];
      for (const outcome of ["approved", "rejected", null] as const) {
        const res = await client.post(MEMBER, casesRoute.POST, "/api/hitl/cases", caseBody({ payload: lgvPayload() }));
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        const id = res.body.caseId as string;
        caseIds.push(id);
        if (outcome) {
          const decided = await client.post(
            REVIEWER,
            decisionRoute.POST,
            `/api/hitl/cases/${id}/decision`,
            { request_id: rid(), decision: outcome, notes: `said "${outcome}", with reasons\nbelow` },
            { id },
          );
          expect(decided.status).toBe(200);
        }
      }

      const decisions = await exported({ kind: "decisions", format: "json" });
      const expectedDecisions = rowsOf<{ event_id: string; outcome: string; notes: string; latency: string }>(
        await suite.database.db.execute(sql`select e.event_id, e.decision_outcome as outcome, e.notes,
            (e.created_at_ms - c.created_at_ms)::text as latency
          from hitl_events e join hitl_cases c on c.case_id = e.case_id
          where e.tenant_id = ${suite.tenants.demo} and e.event_type in ('decision_recorded', 'decision_superseded')
          order by e.created_at_ms, e.event_id`),
      );
      const decisionFile = await download(ADMIN, decisions.id);
      expect(sha256(decisionFile.bytes)).toBe(decisions.manifest?.sha256);
      const decisionRows = JSON.parse(decisionFile.text) as Record<string, unknown>[];
      expect(decisionRows.map((d) => [d.event_id, d.outcome, d.notes, d.latency_ms])).toEqual(
        expectedDecisions.map((e) => [e.event_id, e.outcome, e.notes, Number(e.latency)]),
      );
      expect(decisions.manifest?.rowCount).toBe(expectedDecisions.length);

      const cases = await exported({ kind: "cases", format: "csv" });
      const expectedCases = rowsOf<{ case_id: string; state: string; outcome: string | null; hash: string }>(
        await suite.database.db.execute(sql`select c.case_id, s.current_state as state,
            s.active_decision_outcome as outcome, c.payload_hash_sha256 as hash
          from hitl_cases c join hitl_state s on s.case_id = c.case_id
          where c.tenant_id = ${suite.tenants.demo} order by c.created_at_ms, c.case_id`),
      );
      const caseFile = await download(ADMIN, cases.id);
      expect(sha256(caseFile.bytes)).toBe(cases.manifest?.sha256);
      const caseRows = csvObjects(caseFile.text);
      expect(caseRows.map((c) => [c.case_id, c.status, c.outcome, c.payload_hash_sha256])).toEqual(
        expectedCases.map((c) => [c.case_id, c.state, c.outcome ?? "", c.hash]),
      );
      for (const id of caseIds) expect(caseRows.some((c) => c.case_id === id)).toBe(true);
    });

    it("splits a large file into parts whose bytes do not depend on how it was cut", async () => {
      await fixture();
      // About 2.5 MiB of event data: more than two default parts.
      const big = "x".repeat(6000);
      await recordTrace(
        { tenantId: suite.tenants.demo },
        Array.from({ length: 450 }, (_, i) => ({
          eventType: "tool_result" as const,
          runId: ids.run,
          eventData: { i, big },
          occurredAt: new Date(JUNE + 20 * DAY + i),
        })),
      );
      await drainTrace();
      const request = { kind: "trace" as const, format: "csv" as const, from: JUNE, to: JUNE + 30 * DAY };
      const whole = await createAuditExport(reader, request);
      const manifest = await whole.done;
      const parts = await storedParts(whole.id);
      expect(parts.length).toBeGreaterThanOrEqual(3);
      for (const p of parts.slice(0, -1)) expect(p.bytes.length).toBeGreaterThanOrEqual(1024 * 1024);
      expect(parts.map((p) => p.part)).toEqual(parts.map((_, i) => i + 1));
      const bytes = Buffer.concat(parts.map((p) => Buffer.from(p.bytes)));
      expect(sha256(bytes)).toBe(manifest.sha256);
      expect(manifest.byteSize).toBe(bytes.length);
      const expected = await traceRows(
        sql`event_timestamp >= ${new Date(JUNE).toISOString()} and event_timestamp <= ${new Date(JUNE + 30 * DAY).toISOString()}`,
      );
      expect(manifest.rowCount).toBe(expected.length);
      expect(csvObjects(bytes.toString("utf8")).map((r) => r.id)).toEqual(expected.map((e) => e.id));

      // Read in batches of 7 rows and cut every 4 KiB: many more parts, the same file.
      const small = await createAuditExport(reader, request, { batchRows: 7, partBytes: 4096 });
      const same = await small.done;
      expect((await storedParts(small.id)).length).toBeGreaterThan(parts.length * 100);
      expect(same.sha256).toBe(manifest.sha256);
      expect(same.rowCount).toBe(manifest.rowCount);
      const streamed = await download(ADMIN, small.id);
      expect(sha256(streamed.bytes)).toBe(manifest.sha256);
    });

    it("refuses bad requests with the error shape and records nothing", async () => {
      await fixture();
      const count = async () =>
        rowsOf<{ n: number }>(await suite.database.db.execute(sql`select count(*)::int as n from audit_exports`))[0].n;
      const before = await count();
      const bad: unknown[] = [
        { kind: "logs", format: "csv" },
        { kind: "trace", format: "xml" },
        { format: "csv" },
        { kind: "trace", format: "csv", from: "soon" },
        { kind: "trace", format: "csv", from: "2021-02-01", to: "2021-01-01" },
        { kind: "trace", format: "csv", extra: true },
        { kind: "trace", format: "csv", to: 1.5 },
        [],
      ];
      for (const body of bad) {
        const res = await request(ADMIN, body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body).toMatchObject({ status: "error", code: "VALIDATION_FAILED" });
      }
      const list = await client.get(ADMIN, exportsRoute.GET, "/api/audit/exports?cursor=nope");
      expect(list.status).toBe(400);
      const notAnId = await exportOf(ADMIN, "not-an-id");
      expect(notAnId.status).toBe(404);
      expect(notAnId.body.status).toBe("not_found");
      expect(await count()).toBe(before);
    });

    it("is for the tenant's admins only: 403 for members and reviewers, 404 across tenants", async () => {
      await fixture();
      const x = await exported({ kind: "cases", format: "json" });
      for (const email of [MEMBER, REVIEWER]) {
        expect((await request(email, { kind: "trace", format: "csv" })).status).toBe(403);
        expect((await client.get(email, exportsRoute.GET, "/api/audit/exports")).status).toBe(403);
        expect((await exportOf(email, x.id)).status).toBe(403);
        expect((await download(email, x.id)).status).toBe(403);
      }
      expect((await exportOf(ACME_ADMIN, x.id)).status).toBe(404);
      const acmeFile = await download(ACME_ADMIN, x.id);
      expect(acmeFile.status).toBe(404);
      expect(acmeFile.text).not.toContain(x.manifest?.sha256 ?? "-");
      const acmeList = await client.get(ACME_ADMIN, exportsRoute.GET, "/api/audit/exports");
      expect(acmeList.status).toBe(200);
      expect((acmeList.body.items as AuditExport[]).map((i) => i.id)).not.toContain(x.id);

      // The demo admin's list has it, newest first, a page at a time.
      const walked: string[] = [];
      let cursor: string | null = null;
      do {
        const page: { status: number; body: Record<string, unknown> } = await client.get(
          ADMIN,
          exportsRoute.GET,
          `/api/audit/exports?limit=2${cursor ? `&cursor=${cursor}` : ""}`,
        );
        expect(page.status).toBe(200);
        walked.push(...(page.body.items as AuditExport[]).map((i) => i.id));
        cursor = page.body.next_cursor as string | null;
      } while (cursor);
      const expected = rowsOf<{ id: string }>(
        await suite.database.db.execute(sql`select id from audit_exports where tenant_id = ${suite.tenants.demo}
          order by created_at desc, id desc`),
      );
      expect(walked).toEqual(expected.map((e) => e.id));
      expect(walked).toContain(x.id);
    });

    it("marks an export abandoned by a dead process failed, drops its bytes, and answers 409 for its file", async () => {
      await fixture();
      const id = randomUUID();
      await suite.database.db.insert(schema.auditExports).values({
        id,
        tenantId: suite.tenants.demo,
        kind: "trace",
        format: "csv",
        status: "running",
        requestedBy: reader.userId,
        startedAt: new Date(),
      });
      await suite.database.db
        .insert(schema.auditExportParts)
        .values({ exportId: id, tenantId: suite.tenants.demo, part: 1, bytes: Buffer.from("seq,id\r\n") });

      // On a server database a live writer elsewhere holds the export's lock: then it is left alone.
      if (suite.database.url) {
        const elsewhere = postgres(suite.database.url, { max: 1 });
        try {
          await elsewhere`select pg_advisory_lock(hashtextextended(${`vigil.audit_export:${id}`}, 0))`;
          const alive = await exportOf(ADMIN, id);
          expect(alive.body.status).toBe("running");
          const early = await download(ADMIN, id);
          expect(early.status).toBe(409);
          expect(JSON.parse(early.text)).toMatchObject({ status: "error", code: "EXPORT_NOT_READY" });
        } finally {
          await elsewhere.end();
        }
      }

      const got = await exportOf(ADMIN, id);
      expect(got.body).toMatchObject({ status: "failed", manifest: null });
      expect(String(got.body.error)).toMatch(/stopped before it finished/);
      expect(await storedParts(id)).toEqual([]);
      const file = await download(ADMIN, id);
      expect(file.status).toBe(409);
      expect(JSON.parse(file.text)).toMatchObject({ status: "error", code: "EXPORT_NOT_READY" });
    });

    it("writes a pending export on demand (runAuditExport) and refuses to write one twice", async () => {
      await fixture();
      const id = randomUUID();
      await suite.database.db.insert(schema.auditExports).values({
        id,
        tenantId: suite.tenants.demo,
        kind: "decisions",
        format: "csv",
        requestedBy: reader.userId,
      });
      const manifest = await runAuditExport(reader, id);
      const file = await download(ADMIN, id);
      expect(sha256(file.bytes)).toBe(manifest.sha256);
      const [head] = rowsOf<{ seq: string; hash: string }>(
        await suite.database.db.execute(sql`select t.seq::text as seq, hash from execution_trace t
          where t.tenant_id = ${suite.tenants.demo} order by t.seq desc limit 1`),
      );
      expect(manifest.chainHead).toEqual({ seq: Number(head.seq), hash: head.hash });
      await expect(runAuditExport(reader, id)).rejects.toMatchObject({ code: "EXPORT_NOT_PENDING" });
    });
  });
}
