import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type AuditReader, auditRunReport, auditSessionReport } from "@/lib/audit";
import { rowsOf, schema } from "@/lib/db";
import { NotFoundError } from "@/lib/errors";
import { drainTrace, recordTrace, verifyAndRecord } from "@/lib/trace";
import { ACME_ADMIN, ADMIN, MEMBER } from "../api-hitl/support";
import { appTargets } from "../support/databases";
import { seededDatabase, userIdOf } from "../support/seeded";

const TOKENS = [1200, 800, 300];
const COSTS = [0.0123, 0.004567, 0.001];

for (const target of appTargets()) {
  describe(`the run report on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });

    async function insertRun(
      tenantId: string,
      workflow: string,
      createdBy: string,
      input: unknown,
      place: { threadId?: string; createdAt?: string } = {},
    ) {
      const id = randomUUID();
      await suite.database.db.insert(schema.runs).values({
        id,
        tenantId,
        workflow,
        threadId: place.threadId ?? `report-${id}`,
        status: "completed",
        input,
        createdBy,
        createdAt: new Date(place.createdAt ?? "2021-05-01T09:00:00Z"),
        finishedAt: new Date("2021-05-01T09:05:00Z"),
      });
      return id;
    }

    async function traceRun(tenantId: string, runId: string, userId: string, actorId: string) {
      await recordTrace({ tenantId }, [
        { eventType: "run_start", runId, userId, actorId },
        ...TOKENS.map((tokensUsed, i) => ({
          eventType: "llm_call" as const,
          runId,
          userId,
          nodeName: "plan",
          tokensUsed,
          costUsd: COSTS[i],
        })),
        { eventType: "run_complete", runId, userId },
      ]);
      await drainTrace();
    }

    /** The run's place in the chain, read straight from the table. */
    async function chainOf(tenantId: string, runId: string) {
      const [row] = rowsOf<{ first: string; last: string; last_hash: string; head: string; head_hash: string }>(
        await suite.database.db.execute(sql`select
            (select min(seq)::text from execution_trace where run_id = ${runId}) as first,
            (select max(seq)::text from execution_trace where run_id = ${runId}) as last,
            (select hash from execution_trace where run_id = ${runId} order by seq desc limit 1) as last_hash,
            (select max(seq)::text from execution_trace where tenant_id = ${tenantId}) as head,
            (select hash from execution_trace where tenant_id = ${tenantId} order by seq desc limit 1) as head_hash`),
      );
      return row;
    }

    it("reports who asked and for whom, the totals, and the run's place in the verified chain", async () => {
      const tenantId = suite.tenants.demo;
      const adminId = await userIdOf(suite.database, ADMIN);
      const memberId = await userIdOf(suite.database, MEMBER);
      const reader: AuditReader = { tenantId, userId: adminId, privateWorkflows: ["chat"] };
      const runId = await insertRun(tenantId, "autonomous", memberId, { goal: "Map the submission path" });
      await traceRun(tenantId, runId, memberId, adminId);

      const before = await auditRunReport(reader, runId);
      const chain = await chainOf(tenantId, runId);
      const [member] = rowsOf<{ display_name: string }>(
        await suite.database.db.execute(
          sql`select display_name from memberships where user_id = ${memberId} and tenant_id = ${tenantId}`,
        ),
      );
      expect(before.run.title).toBe("Map the submission path");
      expect(before.askedBy?.id).toBe(adminId);
      expect(before.requestedFor).toEqual({ id: memberId, name: member.display_name });
      expect(before.totals.tokens).toBe(TOKENS.reduce((a, b) => a + b, 0));
      expect(before.totals.costUsd).toBeCloseTo(
        COSTS.reduce((a, b) => a + b, 0),
        6,
      );
      expect(before.timeline.map((e) => e.eventType)).toEqual([
        "run_start",
        "llm_call",
        "llm_call",
        "llm_call",
        "run_complete",
      ]);
      expect(before.chain).toMatchObject({
        runFirstSeq: Number(chain.first),
        runLastSeq: Number(chain.last),
        runLastHash: chain.last_hash,
        headSeq: Number(chain.head),
        headHash: chain.head_hash,
      });
      expect(Number(chain.last) - Number(chain.first)).toBe(4);
      const earlier = rowsOf<{ n: number }>(
        await suite.database.db.execute(
          sql`select count(*)::int as n from audit_verifications where tenant_id = ${tenantId}`,
        ),
      )[0].n;
      expect(before.chain.verification === null).toBe(earlier === 0);
      expect(before.chain.coversRun).toBe(false);

      await verifyAndRecord({ tenantId, actorId: adminId });
      const after = await auditRunReport(reader, runId);
      expect(after.chain.verification).toMatchObject({
        status: "ok",
        verifiedBy: adminId,
        checked: Number(chain.head),
      });
      expect(after.chain.coversRun).toBe(true);

      // A run chained after the verification is not covered by it.
      const newer = await insertRun(tenantId, "autonomous", memberId, { goal: "A later run" });
      await traceRun(tenantId, newer, memberId, memberId);
      const uncovered = await auditRunReport(reader, newer);
      expect(uncovered.chain.coversRun).toBe(false);
      expect(uncovered.chain.runFirstSeq).toBeGreaterThan(after.chain.headSeq);
    });

    it("keeps a private consultation's content from the admin, and another tenant's run out of sight", async () => {
      const tenantId = suite.tenants.demo;
      const adminId = await userIdOf(suite.database, ADMIN);
      const memberId = await userIdOf(suite.database, MEMBER);
      const reader: AuditReader = { tenantId, userId: adminId, privateWorkflows: ["chat"] };
      const chat = await insertRun(tenantId, "chat", memberId, { message: "a private question" });
      await traceRun(tenantId, chat, memberId, memberId);
      const report = await auditRunReport(reader, chat);
      expect(report.run.title).toBeNull();
      expect(report.run.input).toBeNull();
      expect(report.totals.events).toBe(5);

      const acmeAdmin = await userIdOf(suite.database, ACME_ADMIN);
      const acmeRun = await insertRun(suite.tenants.acme, "autonomous", acmeAdmin, { goal: "Acme's own" });
      await expect(auditRunReport(reader, acmeRun)).rejects.toBeInstanceOf(NotFoundError);
      const acmeReader: AuditReader = { tenantId: suite.tenants.acme, userId: acmeAdmin, privateWorkflows: ["chat"] };
      await expect(auditRunReport(acmeReader, chat)).rejects.toBeInstanceOf(NotFoundError);
      expect((await auditRunReport(acmeReader, acmeRun)).chain).toMatchObject({ runFirstSeq: null, coversRun: false });
    });

    it("reports a chat session as its runs in order, with totals over all of them", async () => {
      const tenantId = suite.tenants.demo;
      const adminId = await userIdOf(suite.database, ADMIN);
      const memberId = await userIdOf(suite.database, MEMBER);
      const reader: AuditReader = { tenantId, userId: adminId, privateWorkflows: ["chat"] };
      const sessionId = randomUUID();
      const second = await insertRun(
        tenantId,
        "autonomous",
        memberId,
        { goal: "Follow-up", sessionId },
        {
          createdAt: "2021-05-02T10:00:00Z",
        },
      );
      const first = await insertRun(
        tenantId,
        "chat",
        memberId,
        { message: "private" },
        {
          threadId: `chat:${sessionId}`,
          createdAt: "2021-05-02T09:00:00Z",
        },
      );
      const unrelated = await insertRun(tenantId, "autonomous", memberId, { goal: "Elsewhere" });
      for (const runId of [first, second, unrelated]) await traceRun(tenantId, runId, memberId, memberId);

      const report = await auditSessionReport(reader, sessionId);
      expect(report.runs.map((r) => r.run.id)).toEqual([first, second]);
      expect(report.runs.map((r) => r.run.title)).toEqual([null, "Follow-up"]);
      const tokens = TOKENS.reduce((a, b) => a + b, 0);
      expect(report.totals).toMatchObject({ runs: 2, events: 10, tokens: 2 * tokens, errors: 0, phiAccesses: 0 });
      expect(report.totals.costUsd).toBeCloseTo(2 * COSTS.reduce((a, b) => a + b, 0), 6);
      expect(report.runsTruncated).toBe(false);

      await expect(auditSessionReport(reader, randomUUID())).rejects.toBeInstanceOf(NotFoundError);
      const acmeAdmin = await userIdOf(suite.database, ACME_ADMIN);
      const acmeReader: AuditReader = { tenantId: suite.tenants.acme, userId: acmeAdmin, privateWorkflows: ["chat"] };
      await expect(auditSessionReport(acmeReader, sessionId)).rejects.toBeInstanceOf(NotFoundError);
    });
  });
}
