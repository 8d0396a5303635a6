import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as erasuresRoute from "@/app/api/audit/erasures/route";
import * as retentionRoute from "@/app/api/audit/retention/route";
import * as runsRoute from "@/app/api/audit/retention/runs/route";
import { applyRetention, eraseUserContent, saveRetentionPolicy, sweepRetention } from "@/lib/audit";
import type { RetentionRunView } from "@/lib/audit/contract";
import { rowsOf, schema } from "@/lib/db";
import { GENESIS_HASH, recordTrace, sequenceTrace, verifyChain } from "@/lib/trace";
import type { RemovedRange } from "@/lib/trace/contract";
import { ACME_ADMIN, ACME_MEMBER, ADMIN, hitlClient, MEMBER, REVIEWER } from "../api-hitl/support";
import { appTargets } from "../support/databases";
import { seededDatabase, userIdOf } from "../support/seeded";

const DAY = 86_400_000;
const NOW = new Date(Date.UTC(2031, 0, 15, 12));
const daysAgo = (days: number, from = NOW) => new Date(from.getTime() - days * DAY);

const POLICY = {
  checkpointRetentionDays: 30,
  executionTraceRetentionDays: 365,
  snapshotRetentionDays: 7,
  evidenceChainRetentionDays: 400,
  phiCheckpointRetentionDays: 90,
  phiTraceRetentionDays: 730,
  cleanupEnabled: true,
  cleanupCronSchedule: "0 2 * * *",
};

/** Trace events over five and a half years; every third one touched PHI. */
const TRACE_AGES = [2000, 1900, 1500, 1200, 900, 800, 740, 720, 700, 500, 400, 370, 360, 300, 200, 100, 30, 1];
const PHI_THREAD = "thread-phi";
const PLAIN_THREAD = "thread-plain";
const OLD_THREAD = "thread-old";

/** Checkpoint ages per thread, oldest first (ids ascend with time, as LangGraph's do). */
const CHECKPOINTS: Record<string, number[]> = {
  [PLAIN_THREAD]: [200, 100, 40, 20, 5],
  [PHI_THREAD]: [200, 100, 60, 10],
  [OLD_THREAD]: [400, 300],
};
const EVIDENCE_AGES = [500, 401, 399, 10];

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** A row as the trace was chained before hash version 2, hashed here in that form. */
function v1Row(tenantId: string, seq: number, prevHash: string, userId: string) {
  const event = {
    tenantId,
    seq,
    eventType: "tool_result",
    runId: null,
    nodeName: "old-form",
    actorId: userId,
    eventDurationMs: 5,
    eventData: { question: "an old question" },
    eventTimestamp: new Date(Date.UTC(2024, 4, 1)),
  };
  const hash = sha256(
    prevHash +
      canonicalize({
        tenantId,
        seq,
        eventType: event.eventType,
        runId: null,
        node: event.nodeName,
        actorId: userId,
        durationMs: 5,
        payload: event.eventData,
        occurredAt: event.eventTimestamp.getTime(),
      }),
  );
  return { ...event, userId, hashVersion: 1, prevHash, hash };
}

interface ChainRow {
  id: string;
  seq: number;
  event_type: string;
  event_timestamp: string | Date;
  phi_accessed: boolean;
  hash: string;
}

for (const target of appTargets()) {
  describe(`retention on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });
    const db = () => suite.database.db;

    async function chainRows(tenantId: string): Promise<ChainRow[]> {
      return rowsOf<ChainRow>(
        await db().execute(sql`select id, seq::int as seq, event_type, event_timestamp, phi_accessed, hash
          from execution_trace where tenant_id = ${tenantId} order by seq`),
      );
    }

    async function tamper(statement: ReturnType<typeof sql>) {
      await db().transaction(async (tx) => {
        await tx.execute(sql`alter table execution_trace disable trigger execution_trace_append_only`);
        await tx.execute(statement);
        await tx.execute(sql`alter table execution_trace enable trigger execution_trace_append_only`);
      });
    }

    async function seedFixture(tenantId: string) {
      await recordTrace(
        { tenantId },
        TRACE_AGES.map((age, i) => ({
          eventType: "tool_result" as const,
          nodeName: `fixture-${i}`,
          sessionId: i % 3 === 0 ? PHI_THREAD : PLAIN_THREAD,
          phiAccessed: i % 3 === 0,
          phiFields: i % 3 === 0 ? ["mrn"] : null,
          eventData: { step: i },
          occurredAt: daysAgo(age),
        })),
      );
      await sequenceTrace(tenantId);

      let n = 0;
      for (const [threadId, ages] of Object.entries(CHECKPOINTS)) {
        await db()
          .insert(schema.checkpointThreads)
          .values({ tenantId, threadId, createdAt: daysAgo(ages[0]) });
        for (const age of ages) {
          n += 1;
          const checkpointId = `ck-${String(n).padStart(4, "0")}`;
          await db()
            .insert(schema.checkpoints)
            .values({
              tenantId,
              threadId,
              checkpointId,
              checkpoint: { v: 4, id: checkpointId, channel_versions: { messages: `v${n}`, shared: "s1" } },
              createdAt: daysAgo(age),
            });
          await db()
            .insert(schema.checkpointBlobs)
            .values({
              tenantId,
              threadId,
              channel: "messages",
              version: `v${n}`,
              type: "json",
              blob: new Uint8Array([n]),
            });
          await db()
            .insert(schema.checkpointWrites)
            .values({
              tenantId,
              threadId,
              checkpointId,
              taskId: "t",
              idx: 0,
              channel: "c",
              type: "json",
              blob: new Uint8Array([1]),
            });
        }
        await db()
          .insert(schema.checkpointBlobs)
          .values({ tenantId, threadId, channel: "shared", version: "s1", type: "json", blob: new Uint8Array([0]) });
      }

      const [run] = await db()
        .insert(schema.runs)
        .values({ tenantId, workflow: "autonomous", threadId: PLAIN_THREAD, createdBy: "fixture" })
        .returning({ id: schema.runs.id });
      for (const [i, age] of EVIDENCE_AGES.entries()) {
        await db()
          .insert(schema.evidenceChains)
          .values({
            tenantId,
            runId: run.id,
            sessionId: PLAIN_THREAD,
            requestId: "r",
            claimIndex: i,
            sourceIndex: 0,
            claimText: `claim ${i}`,
            claimType: "fact",
            citationNumber: 1,
            primarySourceId: crypto.randomUUID(),
            primaryChunkId: crypto.randomUUID(),
            primarySourceTitle: "t",
            primarySourceSnippet: "s",
            primarySourceRelevanceScore: 0.5,
            evidenceLevel: "3",
            evidenceConfidence: 0.5,
            searchMethod: "lexical",
            createdAt: daysAgo(age),
          });
      }
    }

    /** What the policy removes from the chain as of `now`, worked out here from the rows themselves. */
    function expectedTrace(rows: ChainRow[], now: Date) {
      const removed = rows.filter((r) => {
        if (r.event_type === "retention") return false;
        const days = r.phi_accessed ? POLICY.phiTraceRetentionDays : POLICY.executionTraceRetentionDays;
        return new Date(r.event_timestamp).getTime() < now.getTime() - days * DAY;
      });
      const ranges: RemovedRange[] = [];
      for (const row of removed) {
        const last = ranges.at(-1);
        if (last && last.to === row.seq - 1) {
          last.to = row.seq;
          last.lastHash = row.hash;
        } else ranges.push({ from: row.seq, to: row.seq, lastHash: row.hash });
      }
      return { removed, ranges };
    }

    function expectedCheckpoints() {
      const removedIds: string[] = [];
      let n = 0;
      for (const [threadId, ages] of Object.entries(CHECKPOINTS)) {
        const keepDays = threadId === PHI_THREAD ? POLICY.phiCheckpointRetentionDays : POLICY.checkpointRetentionDays;
        ages.forEach((age, i) => {
          n += 1;
          const latest = i === ages.length - 1;
          if (!latest && age > keepDays) removedIds.push(`ck-${String(n).padStart(4, "0")}`);
        });
      }
      return removedIds;
    }

    async function remainingCheckpoints(tenantId: string) {
      const rows = await db()
        .select({ id: schema.checkpoints.checkpointId })
        .from(schema.checkpoints)
        .where(eq(schema.checkpoints.tenantId, tenantId));
      return rows.map((r) => r.id).sort();
    }

    async function countOf(table: string, tenantId: string): Promise<number> {
      const [row] = rowsOf<{ n: number }>(
        await db().execute(sql`select count(*)::int as n from ${sql.raw(table)} where tenant_id = ${tenantId}`),
      );
      return row.n;
    }

    let firstRun: RetentionRunView;

    it("previews exactly what the policy removes, and removes nothing", async () => {
      const tenantId = suite.tenants.demo;
      await saveRetentionPolicy({ tenantId, actorId: "admin-test" }, POLICY);
      await seedFixture(tenantId);
      const before = await chainRows(tenantId);
      const { removed, ranges } = expectedTrace(before, NOW);
      expect(removed.length).toBeGreaterThan(TRACE_AGES.filter((a) => a > 730).length - 1);

      const preview = await applyRetention({ tenantId }, { now: NOW, trigger: "cli", actor: null, dryRun: true });
      expect(preview.removed).toEqual({
        trace: removed.length,
        tracePhi: removed.filter((r) => r.phi_accessed).length,
        traceRanges: ranges,
        checkpoints: expectedCheckpoints().length,
        checkpointWrites: expectedCheckpoints().length,
        checkpointBlobs: expectedCheckpoints().length,
        evidence: EVIDENCE_AGES.filter((a) => a > POLICY.evidenceChainRetentionDays).length,
        snapshots: 0,
      });
      expect(await chainRows(tenantId)).toEqual(before);
      expect(await countOf("retention_runs", tenantId)).toBe(0);
    });

    it("removes exactly what the policy says, keeps the latest checkpoint per thread and PHI records, and the chain verifies", async () => {
      const tenantId = suite.tenants.demo;
      const acmeBefore = await chainRows(suite.tenants.acme);
      const before = await chainRows(tenantId);
      const { removed, ranges } = expectedTrace(before, NOW);
      const allCheckpoints = await remainingCheckpoints(tenantId);
      const evidenceBefore = await countOf("evidence_chains", tenantId);
      const blobsBefore = await countOf("checkpoint_blobs", tenantId);

      firstRun = await applyRetention({ tenantId }, { now: NOW, trigger: "cli", actor: null });
      expect(firstRun.status).toBe("completed");

      const after = await chainRows(tenantId);
      const removedIds = new Set(removed.map((r) => r.id));
      const kept = before.filter((r) => !removedIds.has(r.id));
      // Everything kept is still there, and the one new row is the retention event at the head.
      expect(after.slice(0, -1)).toEqual(kept);
      const mark = after.at(-1) as ChainRow;
      expect(mark).toMatchObject({ event_type: "retention", seq: (before.at(-1)?.seq ?? 0) + 1 });
      // A PHI event younger than the PHI retention but older than the trace retention is kept.
      const phiKept = kept.filter(
        (r) => r.phi_accessed && new Date(r.event_timestamp).getTime() < NOW.getTime() - 365 * DAY,
      );
      expect(phiKept.length).toBeGreaterThan(0);

      const remaining = await remainingCheckpoints(tenantId);
      const doomed = new Set(expectedCheckpoints());
      expect(remaining).toEqual(allCheckpoints.filter((id) => !doomed.has(id)));
      expect(await countOf("checkpoint_blobs", tenantId)).toBe(blobsBefore - doomed.size);
      expect(await countOf("checkpoint_writes", tenantId)).toBe(remaining.length);
      expect(await countOf("evidence_chains", tenantId)).toBe(
        evidenceBefore - EVIDENCE_AGES.filter((a) => a > 400).length,
      );

      const [event] = await db()
        .select()
        .from(schema.executionTrace)
        .where(and(eq(schema.executionTrace.tenantId, tenantId), eq(schema.executionTrace.seq, mark.seq)));
      expect(event.eventData).toMatchObject({
        kind: "retention",
        retentionRunId: firstRun.id,
        trace: removed.length,
        traceRanges: ranges,
        closedHash: ranges.at(-1)?.lastHash,
      });
      expect(firstRun).toMatchObject({ traceSeq: mark.seq, closedHash: ranges.at(-1)?.lastHash, trigger: "cli" });
      expect(firstRun.removed?.trace).toBe(removed.length);

      expect(await verifyChain({ tenantId })).toMatchObject({ status: "ok", checked: after.length });
      expect(await chainRows(suite.tenants.acme)).toEqual(acmeBefore);
    });

    it("detects a kept row altered, an unvouched row deleted, a removal beyond the vouched range and a forged vouch", async () => {
      const tenantId = suite.tenants.demo;
      const rows = await chainRows(tenantId);
      const first = firstRun.removed?.traceRanges[0] as RemovedRange;
      const afterGap = rows.find((r) => r.seq === first.to + 1) as ChainRow;
      // Two consecutive kept rows before the retention event at the head.
      const middle = rows.at(-3) as ChainRow;
      const next = rows.at(-2) as ChainRow;
      expect(next.seq).toBe(middle.seq + 1);
      const [savedMiddle] = await db()
        .select()
        .from(schema.executionTrace)
        .where(eq(schema.executionTrace.id, middle.id));

      await tamper(sql`update execution_trace set node_name = 'forged' where id = ${middle.id}`);
      expect(await verifyChain({ tenantId })).toMatchObject({
        status: "broken",
        firstBroken: { id: middle.id, seq: middle.seq, reason: "hash_mismatch" },
      });
      await tamper(sql`update execution_trace set node_name = ${savedMiddle.nodeName} where id = ${middle.id}`);
      expect(await verifyChain({ tenantId })).toMatchObject({ status: "ok" });

      await tamper(sql`delete from execution_trace where id = ${middle.id}`);
      expect(await verifyChain({ tenantId })).toMatchObject({
        status: "broken",
        firstBroken: { id: next.id, seq: next.seq, reason: "sequence_gap" },
      });
      await db().insert(schema.executionTrace).values(savedMiddle);
      expect(await verifyChain({ tenantId })).toMatchObject({ status: "ok" });

      // One row more than the event vouches for, right after its range.
      const [removedTooMany] = await db()
        .select()
        .from(schema.executionTrace)
        .where(eq(schema.executionTrace.id, afterGap.id));
      await tamper(sql`delete from execution_trace where id = ${afterGap.id}`);
      const verdict = await verifyChain({ tenantId });
      expect(verdict).toMatchObject({ status: "broken", firstBroken: { reason: "sequence_gap" } });
      // The next row still there after it is the first that no vouch explains.
      expect(verdict.status === "broken" && verdict.firstBroken.seq).toBe(rows[rows.indexOf(afterGap) + 1].seq);
      await db().insert(schema.executionTrace).values(removedTooMany);

      // A vouch rewritten to cover more breaks the retention event's own hash.
      const mark = firstRun.traceSeq as number;
      await tamper(sql`update execution_trace set event_data = jsonb_set(event_data, '{traceRanges,0,to}', ${String(first.to + 1)}::jsonb)
        where tenant_id = ${tenantId} and seq = ${mark}`);
      await tamper(sql`delete from execution_trace where id = ${afterGap.id}`);
      const forged = await verifyChain({ tenantId });
      expect(forged).toMatchObject({ status: "broken" });
      expect(forged.status === "broken" && forged.firstBroken.seq).toBeLessThanOrEqual(mark);
      await db().insert(schema.executionTrace).values(removedTooMany);
      await tamper(sql`update execution_trace set event_data = jsonb_set(event_data, '{traceRanges,0,to}', ${String(first.to)}::jsonb)
        where tenant_id = ${tenantId} and seq = ${mark}`);
      expect(await verifyChain({ tenantId })).toMatchObject({ status: "ok" });
    });

    it("a later application removes the next rows and the chain, with two retention events, still verifies", async () => {
      const tenantId = suite.tenants.demo;
      const later = new Date(NOW.getTime() + 400 * DAY);
      const before = await chainRows(tenantId);
      const { removed, ranges } = expectedTrace(before, later);
      expect(removed.length).toBeGreaterThan(0);
      const run = await applyRetention({ tenantId }, { now: later, trigger: "manual", actor: "admin-test" });
      expect(run.removed).toMatchObject({ trace: removed.length, traceRanges: ranges });
      const after = await chainRows(tenantId);
      expect(after.filter((r) => r.event_type === "retention")).toHaveLength(2);
      expect(await verifyChain({ tenantId })).toMatchObject({ status: "ok", checked: after.length });
    });
  });
}

for (const target of appTargets()) {
  describe(`erasure and the retention API on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });
    const db = () => suite.database.db;
    const client = hitlClient();

    async function traceOf(tenantId: string) {
      return db()
        .select()
        .from(schema.executionTrace)
        .where(eq(schema.executionTrace.tenantId, tenantId))
        .orderBy(schema.executionTrace.seq);
    }

    it("redacts one user's payload fields, keeps rows of older hash forms, and the chain still verifies", async () => {
      const tenantId = suite.tenants.acme;
      const subject = await userIdOf(suite.database, ACME_MEMBER);
      const admin = await userIdOf(suite.database, ACME_ADMIN);
      await sequenceTrace(tenantId);
      const [head] = (await traceOf(tenantId)).slice(-1);
      await db()
        .insert(schema.executionTrace)
        .values(v1Row(tenantId, (head?.seq ?? 0) + 1, head?.hash ?? GENESIS_HASH, subject));
      const payloads = [
        { question: "my symptoms", nested: { mrn: "12345" }, list: [1, "two"] },
        { answer: "take rest", n: 3 },
      ];
      await recordTrace({ tenantId }, [
        { eventType: "llm_call", userId: subject, eventData: payloads[0] },
        { eventType: "tool_result", actorId: subject, eventData: payloads[1] },
        { eventType: "llm_call", userId: admin, eventData: { question: "someone else's" } },
      ]);
      await sequenceTrace(tenantId);
      const before = await traceOf(tenantId);

      const erasure = await eraseUserContent({ tenantId, actorId: admin }, subject);
      expect(erasure.rowsRedacted).toEqual({ trace: 2, traceKept: 1 });

      const after = await traceOf(tenantId);
      const redacted = after.filter((r) => r.hashVersion === 3 && (r.userId === subject || r.actorId === subject));
      expect(redacted.map((r) => r.eventData)).toEqual(
        payloads.map((p) =>
          Object.fromEntries(Object.entries(p).map(([k, v]) => [k, { redacted: sha256(canonicalize(v) ?? "") }])),
        ),
      );
      // Nobody else's rows change, nor the subject's row of the old form; every hash stays as it was.
      const untouched = after.slice(0, before.length).filter((r) => !redacted.some((x) => x.id === r.id));
      expect(untouched).toEqual(before.filter((r) => !redacted.some((x) => x.id === r.id)));
      expect(after.slice(0, before.length).map((r) => r.hash)).toEqual(before.map((r) => r.hash));
      const mark = after.at(-1);
      expect(mark).toMatchObject({
        eventType: "retention",
        seq: erasure.traceSeq,
        actorId: admin,
        eventData: { kind: "erasure", subjectUserId: subject, trace: 2, traceKept: 1 },
      });
      expect(await verifyChain({ tenantId })).toMatchObject({ status: "ok", checked: after.length });

      // A second erasure finds nothing left to redact.
      expect((await eraseUserContent({ tenantId, actorId: admin }, subject)).rowsRedacted).toEqual({
        trace: 0,
        traceKept: 1,
      });
    });

    it("lets the erasure job rewrite only the payload of a version 3 row, and a forged digest is detected", async () => {
      const tenantId = suite.tenants.acme;
      const rows = await traceOf(tenantId);
      const v3 = rows.find((r) => r.hashVersion === 3 && r.eventType === "llm_call") as (typeof rows)[number];
      const old = rows.find((r) => r.hashVersion === 1) as (typeof rows)[number];
      const asErasureJob = (statement: ReturnType<typeof sql>) =>
        db().transaction(async (tx) => {
          await tx.execute(sql`select set_config('vigil.erasure_job', 'on', true)`);
          await tx.execute(statement);
        });
      await expect(asErasureJob(sql`update execution_trace set node_name = 'x' where id = ${v3.id}`)).rejects.toThrow();
      await expect(
        asErasureJob(sql`update execution_trace set event_data = '{}'::jsonb where id = ${old.id}`),
      ).rejects.toThrow();
      await expect(
        db().execute(sql`update execution_trace set event_data = '{}'::jsonb where id = ${v3.id}`),
      ).rejects.toThrow();

      const forged = Object.fromEntries(Object.keys(v3.eventData).map((k) => [k, { redacted: "0".repeat(64) }]));
      await asErasureJob(
        sql`update execution_trace set event_data = ${JSON.stringify(forged)}::jsonb where id = ${v3.id}`,
      );
      expect(await verifyChain({ tenantId })).toMatchObject({
        status: "broken",
        firstBroken: { id: v3.id, reason: "hash_mismatch" },
      });
      await asErasureJob(
        sql`update execution_trace set event_data = ${JSON.stringify(v3.eventData)}::jsonb where id = ${v3.id}`,
      );
      expect(await verifyChain({ tenantId })).toMatchObject({ status: "ok" });
    });

    it("answers 403 to members and reviewers on every retention and erasure route", async () => {
      for (const email of [MEMBER, REVIEWER]) {
        const responses = [
          await client.get(email, retentionRoute.GET, "/api/audit/retention"),
          await client.put(email, retentionRoute.PUT, "/api/audit/retention", { checkpoint_retention_days: 1 }),
          await client.post(email, runsRoute.POST, "/api/audit/retention/runs", { dry_run: true }),
          await client.post(email, erasuresRoute.POST, "/api/audit/erasures", { user_id: "x" }),
        ];
        for (const res of responses) expect(res.status, `${email} ${JSON.stringify(res.body)}`).toBe(403);
      }
    });

    const VALID = {
      checkpoint_retention_days: 45,
      execution_trace_retention_days: 3000,
      snapshot_retention_days: 7,
      evidence_chain_retention_days: 2190,
      phi_checkpoint_retention_days: 2190,
      phi_trace_retention_days: 2555,
      cleanup_enabled: true,
      cleanup_cron_schedule: "30 3 * * *",
    };

    it("refuses a bad policy with 400 and changes nothing, and saves a good one with who saved it", async () => {
      const initial = await client.get(ADMIN, retentionRoute.GET, "/api/audit/retention");
      expect(initial.status).toBe(200);
      expect(initial.body.policy).toMatchObject({
        saved: false,
        checkpointRetentionDays: 30,
        phiTraceRetentionDays: 2190,
      });

      const bad: Record<string, unknown>[] = [
        { ...VALID, checkpoint_retention_days: 0 },
        { ...VALID, execution_trace_retention_days: 36501 },
        { ...VALID, phi_trace_retention_days: 1.5 },
        { ...VALID, snapshot_retention_days: "7" },
        { ...VALID, cleanup_cron_schedule: "every night" },
        { ...VALID, cleanup_cron_schedule: "61 2 * * *" },
        { ...VALID, retention_forever: true },
        { checkpoint_retention_days: 10 },
      ];
      for (const body of bad) {
        const res = await client.put(ADMIN, retentionRoute.PUT, "/api/audit/retention", body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body).toMatchObject({ status: "error", code: "VALIDATION_FAILED" });
        expect(JSON.stringify(res.body)).not.toMatch(/select|stack|at \//i);
      }
      expect((await client.get(ADMIN, retentionRoute.GET, "/api/audit/retention")).body.policy).toEqual(
        initial.body.policy,
      );

      const saved = await client.put(ADMIN, retentionRoute.PUT, "/api/audit/retention", VALID);
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      const [row] = await db()
        .select()
        .from(schema.retentionConfig)
        .where(eq(schema.retentionConfig.tenantId, suite.tenants.demo));
      expect(row).toMatchObject({
        checkpointRetentionDays: 45,
        executionTraceRetentionDays: 3000,
        phiTraceRetentionDays: 2555,
        cleanupCronSchedule: "30 3 * * *",
        updatedBy: await userIdOf(suite.database, ADMIN),
      });
      expect(saved.body.policy).toMatchObject({ saved: true, checkpointRetentionDays: 45 });
    });

    it("applies now or previews for an admin, and an acme admin sees and touches nothing of demo", async () => {
      const demoTrace = await traceOf(suite.tenants.demo);
      const preview = await client.post(ADMIN, runsRoute.POST, "/api/audit/retention/runs", { dry_run: true });
      expect(preview.status, JSON.stringify(preview.body)).toBe(200);
      expect(preview.body).toMatchObject({ dryRun: true, removed: { trace: 0, snapshots: 0 } });
      expect(await traceOf(suite.tenants.demo)).toEqual(demoTrace);

      const applied = await client.post(ADMIN, runsRoute.POST, "/api/audit/retention/runs", {});
      expect(applied.status, JSON.stringify(applied.body)).toBe(201);
      const adminId = await userIdOf(suite.database, ADMIN);
      expect(applied.body.run).toMatchObject({ trigger: "manual", actor: adminId, status: "completed" });
      expect((await client.post(ADMIN, runsRoute.POST, "/api/audit/retention/runs", { dry_run: "yes" })).status).toBe(
        400,
      );

      const demoView = await client.get(ADMIN, retentionRoute.GET, "/api/audit/retention");
      expect((demoView.body.runs as { id: string }[]).map((r) => r.id)).toEqual([
        (applied.body.run as { id: string }).id,
      ]);

      const demoAfter = await traceOf(suite.tenants.demo);
      const acmeView = await client.get(ACME_ADMIN, retentionRoute.GET, "/api/audit/retention");
      expect(acmeView.status).toBe(200);
      expect(acmeView.body.policy).toMatchObject({ saved: false, checkpointRetentionDays: 30 });
      expect(acmeView.body.runs).toEqual([]);
      const acmeErasures = acmeView.body.erasures as { subjectUserId: string }[];
      const acmeMember = await userIdOf(suite.database, ACME_MEMBER);
      expect(acmeErasures.every((e) => e.subjectUserId === acmeMember)).toBe(true);

      expect((await client.post(ACME_ADMIN, runsRoute.POST, "/api/audit/retention/runs", {})).status).toBe(201);
      const demoMember = await userIdOf(suite.database, MEMBER);
      const notOurs = await client.post(ACME_ADMIN, erasuresRoute.POST, "/api/audit/erasures", { user_id: demoMember });
      expect(notOurs.status, JSON.stringify(notOurs.body)).toBe(404);
      expect((await client.post(ACME_ADMIN, erasuresRoute.POST, "/api/audit/erasures", {})).status).toBe(400);
      expect(await traceOf(suite.tenants.demo)).toEqual(demoAfter);
      expect(
        await db().select().from(schema.retentionRuns).where(eq(schema.retentionRuns.tenantId, suite.tenants.demo)),
      ).toHaveLength(1);

      const erased = await client.post(ADMIN, erasuresRoute.POST, "/api/audit/erasures", { user_id: demoMember });
      expect(erased.status, JSON.stringify(erased.body)).toBe(201);
      expect(await verifyChain({ tenantId: suite.tenants.demo })).toMatchObject({ status: "ok" });
    });

    it("sweeps each tenant once per slot of its own schedule, never before the first slot, and skips a disabled one", async () => {
      const { demo, acme } = suite.tenants;
      await saveRetentionPolicy(
        { tenantId: demo, actorId: "admin-test" },
        {
          ...POLICY,
          executionTraceRetentionDays: 3650,
          phiTraceRetentionDays: 3650,
          cleanupCronSchedule: "30 3 * * *",
        },
      );
      await saveRetentionPolicy(
        { tenantId: acme, actorId: "admin-test" },
        { ...POLICY, executionTraceRetentionDays: 3650, phiTraceRetentionDays: 3650, cleanupEnabled: false },
      );
      const scheduled = async (tenantId: string) =>
        (await db().select().from(schema.retentionRuns).where(eq(schema.retentionRuns.tenantId, tenantId))).filter(
          (r) => r.trigger === "schedule",
        );
      const since = new Date(Date.UTC(2031, 0, 14, 3, 45));
      // Demo's slot (03:30) passed before the sweep started: the first one to run at is the next day's.
      expect(await sweepRetention(new Date(Date.UTC(2031, 0, 15, 3, 0)), since)).toBe(0);
      expect(await sweepRetention(new Date(Date.UTC(2031, 0, 15, 3, 40)), since)).toBe(1);
      expect(await sweepRetention(new Date(Date.UTC(2031, 0, 15, 3, 50)), since)).toBe(0);
      expect(await sweepRetention(new Date(Date.UTC(2031, 0, 16, 3, 31)), since)).toBe(1);
      expect((await scheduled(demo)).map((r) => r.asOf.toISOString()).sort()).toEqual([
        "2031-01-15T03:40:00.000Z",
        "2031-01-16T03:31:00.000Z",
      ]);
      expect(await scheduled(acme)).toEqual([]);
      expect(await verifyChain({ tenantId: demo })).toMatchObject({ status: "ok" });
    });

    it("applies a slot once when several instances sweep it at the same time", async () => {
      const { demo } = suite.tenants;
      // Demo's schedule is 03:30 daily (the test above); these sweeps all find the 17th's slot due.
      const at = new Date(Date.UTC(2031, 0, 17, 3, 35));
      const since = new Date(Date.UTC(2031, 0, 14, 3, 45));
      const applied = await Promise.all([1, 2, 3].map(() => sweepRetention(at, since)));
      expect(applied.reduce((a, b) => a + b, 0)).toBe(1);
      const slot = new Date(Date.UTC(2031, 0, 17, 3, 30));
      const runs = await db().select().from(schema.retentionRuns).where(eq(schema.retentionRuns.tenantId, demo));
      expect(runs.filter((r) => r.slot?.getTime() === slot.getTime())).toHaveLength(1);
      // A late sweeper that missed the others' record still cannot apply the slot again.
      expect(await applyRetention({ tenantId: demo }, { now: at, trigger: "schedule", actor: null, slot })).toBeNull();
      const after = await db().select().from(schema.retentionRuns).where(eq(schema.retentionRuns.tenantId, demo));
      expect(after).toHaveLength(runs.length);
      expect(await verifyChain({ tenantId: demo })).toMatchObject({ status: "ok" });
    });
  });
}
