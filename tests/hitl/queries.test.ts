import { readFileSync } from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { schema } from "@/lib/db";
import {
  clarificationBacklog,
  decisionLog,
  decisionStats,
  escalateCase,
  getCase,
  type HitlQueueItem,
  listCases,
  listReviewQueue,
  provideClarification,
  recordDecision,
  registerAdapterVersion,
  registerUpcaster,
  requestClarification,
  reviewQueueCounts,
  submitCase,
} from "@/lib/hitl";
import { appTargets } from "../support/databases";
import { seededDatabase } from "../support/seeded";
import { actors, lgvPayload, refusal, rid, submitLgv } from "./support";

async function walk<T extends { id: string }>(
  fetchPage: (cursor: string | null) => Promise<{ items: T[]; nextCursor: string | null }>,
): Promise<T[]> {
  const all: T[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 100; pages++) {
    const page = await fetchPage(cursor);
    all.push(...page.items);
    if (!page.nextCursor) return all;
    cursor = page.nextCursor;
  }
  throw new Error("pagination did not end");
}

for (const target of appTargets()) {
  describe(`HITL queries on ${target.name}`, () => {
    const suite = seededDatabase(target);
    const demo = () => actors(suite.tenants, "demo");
    const scope = () => ({ tenantId: suite.tenants.demo });
    const ids: Record<string, string> = {};
    let startedAt = 0;

    // One tenant's history, built once: 12 cases in known states.
    beforeAll(async () => {
      startedAt = Date.now();
      const { member, reviewer, admin } = demo();
      for (let i = 0; i < 6; i++) ids[`pending${i}`] = (await submitLgv(member)).caseId;
      ids.critical = (
        await submitCase(member, {
          adapter: "lgv_troubleshooting",
          payload: lgvPayload(),
          requestId: rid(),
          priority: "critical",
        })
      ).caseId;
      ids.asked = (await submitLgv(member)).caseId;
      await requestClarification(reviewer, ids.asked, { requestId: rid(), question: "Which firmware?" });
      ids.answered = (await submitLgv(member)).caseId;
      await requestClarification(reviewer, ids.answered, { requestId: rid(), question: "Which aisle?" });
      await provideClarification(member, ids.answered, { requestId: rid(), answer: "Aisle 4" });
      ids.approved = (await submitLgv(member)).caseId;
      await recordDecision(reviewer, ids.approved, { requestId: rid(), outcome: "approved" });
      ids.modified = (await submitLgv(member)).caseId;
      await recordDecision(admin, ids.modified, {
        requestId: rid(),
        outcome: "approved",
        modifications: { proposed_next_action: "Replace the scanner" },
      });
      ids.rejected = (
        await submitCase(member, {
          adapter: "lgv_troubleshooting",
          payload: lgvPayload(),
          requestId: rid(),
          refs: [{ ref_type: "ticket", ref_key: "jira", ref_value: "TICKET-42" }],
        })
      ).caseId;
      await recordDecision(reviewer, ids.rejected, { requestId: rid(), outcome: "rejected", notes: "duplicate" });
      // Another tenant's case never shows up here.
      await submitLgv(actors(suite.tenants, "acme").member);
    });

    it("the review queue lists pending cases newest first and pages through all of them exactly once", async () => {
      const all = await walk((cursor) => listReviewQueue(scope(), { limit: 3, cursor }));
      const expected = ["answered", "critical", "pending5", "pending4", "pending3", "pending2", "pending1", "pending0"];
      expect(all.map((c) => c.id)).toEqual(expected.map((k) => ids[k]));
      const createdAt = all.map((c) => c.createdAt);
      expect(createdAt).toEqual([...createdAt].sort((a, b) => b - a));
      expect(all.every((c) => c.state === "pending")).toBe(true);
    });

    it("filters the queue by priority and state, and counts what is open", async () => {
      const critical = await listReviewQueue(scope(), { priority: "critical" });
      expect(critical.items.map((c) => c.id)).toEqual([ids.critical]);
      const waiting = await listReviewQueue(scope(), { state: ["needs_clarification"] });
      expect(waiting.items.map((c) => c.id)).toEqual([ids.asked]);
      expect(waiting.items[0].openQuestion).toBe("Which firmware?");
      expect(await reviewQueueCounts(scope())).toMatchObject({
        pending: 8,
        needsClarification: 1,
        escalated: 0,
        byAdapter: { lgv_troubleshooting: 9 },
        byPriority: { normal: 8, critical: 1 },
      });
    });

    it("finds reviewed cases by decision, by operator and date range, and by reference", async () => {
      const approved = await listCases(scope(), { outcome: "approved" }, { sort: "decided" });
      expect(approved.items.map((c) => c.id)).toEqual([ids.modified, ids.approved]);
      const byReviewer = await listCases(scope(), { decidedBy: demo().reviewer.userId, decidedFrom: startedAt });
      expect(new Set(byReviewer.items.map((c) => c.id))).toEqual(new Set([ids.approved, ids.rejected]));
      const future = await listCases(scope(), { decidedFrom: Date.now() + 60_000 });
      expect(future.items).toEqual([]);
      const byRef = await listCases(scope(), { ref: { ref_type: "ticket", ref_value: "TICKET-42" } });
      expect(byRef.items.map((c) => c.id)).toEqual([ids.rejected]);
      const all = await walk<HitlQueueItem>((cursor) => listCases(scope(), {}, { limit: 5, cursor }));
      expect(all).toHaveLength(12);
      expect(new Set(all.map((c) => c.id)).size).toBe(12);
    });

    it("tells who decided what and when", async () => {
      const log = await decisionLog(scope(), { from: startedAt });
      expect(log.items.map((d) => [d.caseId, d.outcome, d.actor.id, d.modified])).toEqual([
        [ids.rejected, "rejected", demo().reviewer.userId, false],
        [ids.modified, "approved", demo().admin.userId, true],
        [ids.approved, "approved", demo().reviewer.userId, false],
      ]);
      expect(log.items[0]).toMatchObject({ notes: "duplicate", supersedesEventId: null, actor: { kind: "operator" } });
      const adminOnly = await decisionLog(scope(), { actorId: demo().admin.userId });
      expect(adminOnly.items.map((d) => d.caseId)).toEqual([ids.modified]);
    });

    it("reports throughput and approval rates over time", async () => {
      const stats = await decisionStats(scope(), { from: startedAt - 1000, to: Date.now() + 1000, bucket: "day" });
      expect(stats.totals).toMatchObject({ submitted: 12, decided: 3, approved: 2, rejected: 1 });
      expect(stats.totals.approvalRate).toBeCloseTo(2 / 3);
      expect(stats.buckets.reduce((n, b) => n + b.submitted, 0)).toBe(12);
      const empty = await decisionStats(scope(), { from: 0, to: 1000, bucket: "hour" });
      expect(empty.buckets).toEqual([]);
      expect(empty.totals.approvalRate).toBeNull();
    });

    it("lists the clarification backlog with the age of each question", async () => {
      const now = Date.now() + 5000;
      const backlog = await clarificationBacklog(scope(), { now });
      expect(backlog.items.map((c) => c.id)).toEqual([ids.asked]);
      expect(backlog.items[0].ageMs).toBeGreaterThanOrEqual(5000);

      // An escalation touches the case, not the question: the question keeps its age.
      await new Promise((resolve) => setTimeout(resolve, 20));
      await escalateCase(demo().reviewer, ids.asked, { requestId: rid(), target: "admin" });
      const after = await clarificationBacklog(scope(), { now });
      expect(after.items[0].ageMs).toBe(backlog.items[0].ageMs);
      const kase = await getCase(demo().reviewer, ids.asked);
      expect(kase.state.needsClarificationSince).toBe(now - backlog.items[0].ageMs);
      expect(kase.state.updatedAt).toBeGreaterThan(kase.state.needsClarificationSince as number);

      // Rows from before the column: migration 0020 gives them their last question's time.
      const asked = kase.state.needsClarificationSince;
      const st = schema.hitlState;
      await suite.database.db.update(st).set({ needsClarificationSince: null }).where(eq(st.caseId, ids.asked));
      const file = path.resolve(import.meta.dirname, "../../drizzle/0020_hitl_clarification_since.sql");
      const backfill = readFileSync(file, "utf8")
        .split("--> statement-breakpoint")
        .map((s) => s.trim().replace(/^--.*\n/gm, ""))
        .filter((s) => s.startsWith("UPDATE"));
      expect(backfill).toHaveLength(1);
      // Run on today's tables, whose columns 0021 renamed to the design's names.
      const renamed: Record<string, string> = {
        '"needs_clarification_since"': '"needs_clarification_since_ms"',
        '"created_at"': '"created_at_ms"',
        '"type"': '"event_type"',
        '"state"': '"current_state"',
      };
      const statement = backfill[0].replace(
        /"(needs_clarification_since|created_at|type|state)"/g,
        (name) => renamed[name],
      );
      expect(statement).toContain("s.\"current_state\" = 'needs_clarification'");
      await suite.database.db.execute(sql.raw(statement));
      expect((await getCase(demo().reviewer, ids.asked)).state.needsClarificationSince).toBe(asked);
    });

    it("reads cases of an older schema version through upcasters", async () => {
      const v2 = {
        type: "object",
        properties: { symptom: { type: "string" }, site: { type: "string" }, severity: { type: "string" } },
        required: ["symptom", "site", "severity"],
      };
      registerUpcaster("lgv_troubleshooting", 1, (payload) => ({ ...payload, severity: "unknown" }));
      await registerAdapterVersion(scope(), "lgv_troubleshooting", v2, { activate: true });
      const old = await getCase(demo().reviewer, ids.pending0);
      expect(old.schemaVersion).toBe(1);
      expect(old.payloadVersion).toBe(2);
      expect(old.payload).toMatchObject({ severity: "unknown", site: "Lyon DC2" });
      const onOld = await walk((cursor) => listCases(scope(), { oldSchema: true }, { cursor, limit: 100 }));
      expect(onOld).toHaveLength(12);
      // New cases are validated against version 2 and are not "old".
      const fresh = await submitCase(demo().member, {
        adapter: "lgv_troubleshooting",
        payload: { symptom: "Stops", site: "Lyon", severity: "high" },
        requestId: rid(),
      });
      expect((await getCase(demo().reviewer, fresh.caseId)).payloadVersion).toBe(2);
      expect((await listCases(scope(), { oldSchema: true }, { limit: 100 })).items).toHaveLength(12);
      const error = await refusal(submitLgv(demo().member));
      expect(error.code).toBe("PAYLOAD_INVALID");
    });

    it("refuses a cursor it did not hand out", async () => {
      const error = await refusal(listCases(scope(), {}, { cursor: "not-a-cursor" }));
      expect(error).toMatchObject({ kind: "invalid", code: "VALIDATION_FAILED" });
    });
  });
}
