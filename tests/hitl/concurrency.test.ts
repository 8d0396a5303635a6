import { describe, expect, it } from "vitest";
import {
  caseHistory,
  escalateCase,
  getCase,
  listReviewQueue,
  recordDecision,
  registerDefaultAdapters,
  submitCase,
} from "@/lib/hitl";
import { testTargets } from "../support/databases";
import { seededDatabase } from "../support/seeded";
import { actors, lgvPayload, rid, submitLgv } from "./support";

for (const target of testTargets()) {
  describe(`HITL concurrent decisions on ${target.name}`, () => {
    const suite = seededDatabase(target);

    it("50 concurrent decisions on one case: exactly one wins, the rest are ALREADY_TERMINAL", async () => {
      await registerDefaultAdapters({ tenantId: suite.tenants.demo });
      const { reviewer, admin } = actors(suite.tenants);
      const { caseId } = await submitLgv(actors(suite.tenants).member);
      const settled = await Promise.allSettled(
        Array.from({ length: 50 }, (_, i) =>
          recordDecision(i % 2 ? reviewer : admin, caseId, {
            requestId: rid(`decide-${i}`),
            outcome: i % 3 ? "approved" : "rejected",
          }),
        ),
      );
      const won = settled.filter((s) => s.status === "fulfilled");
      const lost = settled.filter((s): s is PromiseRejectedResult => s.status === "rejected");
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(49);
      const winner = (won[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof recordDecision>>>).value;
      for (const l of lost) {
        expect(l.reason).toMatchObject({
          code: "ALREADY_TERMINAL",
          kind: "conflict",
          details: { decision: { event_id: winner.event.id, decision_outcome: winner.state } },
        });
      }
      const history = await caseHistory(reviewer, caseId);
      expect(history.filter((e) => e.type === "decision_recorded")).toHaveLength(1);
      expect((await getCase(reviewer, caseId)).state).toMatchObject({
        state: winner.state,
        decisionEventId: winner.event.id,
      });
    });

    it("50 concurrent retries of one decision (one request_id) write one event; the others replay it", async () => {
      await registerDefaultAdapters({ tenantId: suite.tenants.demo });
      const { reviewer } = actors(suite.tenants);
      const { caseId } = await submitLgv(actors(suite.tenants).member);
      const requestId = rid("decide-retry");
      const results = await Promise.all(
        Array.from({ length: 50 }, () =>
          recordDecision(reviewer, caseId, { requestId, outcome: "approved", notes: "checked the logs" }),
        ),
      );
      expect(new Set(results.map((r) => r.event.id)).size).toBe(1);
      expect(results.filter((r) => !r.replayed)).toHaveLength(1);
      expect(results.every((r) => r.state === "approved")).toBe(true);
      const history = await caseHistory(reviewer, caseId);
      expect(history.filter((e) => e.type === "decision_recorded")).toHaveLength(1);
    });

    it("20 concurrent retries of an action the case still allows afterwards (escalate) write one event", async () => {
      const { reviewer } = actors(suite.tenants);
      const { caseId } = await submitLgv(actors(suite.tenants).member);
      const requestId = rid("escalate-retry");
      const results = await Promise.all(
        Array.from({ length: 20 }, () => escalateCase(reviewer, caseId, { requestId, target: "admin" })),
      );
      expect(new Set(results.map((r) => r.event.id)).size).toBe(1);
      expect(results.filter((r) => !r.replayed)).toHaveLength(1);
      const history = await caseHistory(reviewer, caseId);
      expect(history.map((e) => e.type)).toEqual(["submitted", "escalated"]);
    });

    it("20 concurrent submits with one request_id open one case; the others replay it", async () => {
      await registerDefaultAdapters({ tenantId: suite.tenants.demo });
      const { member } = actors(suite.tenants);
      const requestId = rid("submit-race");
      const payload = lgvPayload({ lgv_id: "LGV-RACE" });
      const results = await Promise.all(
        Array.from({ length: 20 }, () => submitCase(member, { adapter: "lgv_troubleshooting", payload, requestId })),
      );
      expect(new Set(results.map((r) => r.caseId)).size).toBe(1);
      expect(new Set(results.map((r) => r.event.id)).size).toBe(1);
      expect(results.filter((r) => !r.replayed)).toHaveLength(1);
      const queue = await listReviewQueue(member, { limit: 100 });
      expect(queue.items.filter((i) => i.id === results[0].caseId)).toHaveLength(1);
    });
  });
}
