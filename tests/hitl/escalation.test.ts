import { beforeAll, describe, expect, it } from "vitest";
import {
  addSlaTime,
  caseHistory,
  escalateCase,
  escalationsDue,
  getCase,
  listReviewQueue,
  projectionDrift,
  recordDecision,
  runEscalationSweep,
  setSlaPolicy,
} from "@/lib/hitl";
import { appTargets } from "../support/databases";
import { seededDatabase } from "../support/seeded";
import { actors, refusal, rid, submitLgv } from "./support";

const HOUR = 3_600_000;

describe("SLA time", () => {
  // 2026-11-20 is a Friday.
  const friday10 = Date.UTC(2026, 10, 20, 10);
  it("counts every hour on the calendar", () => {
    expect(addSlaTime(friday10, 24, "calendar")).toBe(Date.UTC(2026, 10, 21, 10));
  });
  it("skips Saturday and Sunday on the business calendar", () => {
    expect(addSlaTime(friday10, 24, "business")).toBe(Date.UTC(2026, 10, 23, 10));
    // Exactly the rest of Friday: due at its end, not pushed over the weekend.
    expect(addSlaTime(friday10, 14, "business")).toBe(Date.UTC(2026, 10, 21, 0));
    const saturday = Date.UTC(2026, 10, 21, 15);
    expect(addSlaTime(saturday, 1, "business")).toBe(Date.UTC(2026, 10, 23, 1));
  });
});

for (const target of appTargets()) {
  describe(`HITL escalation on ${target.name}`, () => {
    const suite = seededDatabase(target);
    const demo = () => actors(suite.tenants, "demo");
    const scope = () => ({ tenantId: suite.tenants.demo });

    beforeAll(async () => {
      await setSlaPolicy(demo().admin, {
        adapter: "lgv_troubleshooting",
        dueHours: 4,
        calendar: "calendar",
        escalateTo: "admin",
        renotifyHours: 2,
      });
    });

    it("only admins set a policy, and a bad one is refused", async () => {
      const policy = {
        adapter: "lgv_troubleshooting",
        dueHours: 4,
        calendar: "calendar" as const,
        escalateTo: "admin",
        renotifyHours: null,
      };
      expect(await refusal(setSlaPolicy(demo().reviewer, policy))).toMatchObject({ code: "FORBIDDEN" });
      expect(await refusal(setSlaPolicy(demo().admin, { ...policy, dueHours: 0 }))).toMatchObject({ kind: "invalid" });
      expect(await refusal(setSlaPolicy(demo().admin, { ...policy, adapter: "nope" }))).toMatchObject({
        code: "ADAPTER_NOT_FOUND",
      });
    });

    it("fixes the deadline at submission and escalates with explicit events, once per deadline", async () => {
      const { caseId } = await submitLgv(demo().member);
      const submitted = await getCase(demo().reviewer, caseId);
      const dueAt = submitted.state.dueAt as number;
      expect(dueAt - submitted.createdAt).toBe(4 * HOUR);
      expect((await escalationsDue(scope(), { which: "due", horizonMs: 5 * HOUR })).items.map((c) => c.id)).toContain(
        caseId,
      );

      // Before the deadline nothing happens.
      const early = await runEscalationSweep({ now: dueAt - 1 });
      expect(early.escalated.filter((e) => e.caseId === caseId)).toEqual([]);

      // Several processes sweep at once after the deadline: one escalation.
      const sweeps = await Promise.all([1, 2, 3, 4].map(() => runEscalationSweep({ now: dueAt + 1 })));
      expect(sweeps.flatMap((s) => s.escalated).filter((e) => e.caseId === caseId)).toEqual([
        { tenantId: scope().tenantId, caseId, level: 1 },
      ]);
      const after = await getCase(demo().reviewer, caseId);
      expect(after.state).toMatchObject({ state: "pending", escalationLevel: 1, escalatedTo: "admin" });
      expect(after.state.nextEscalationAt).toBeGreaterThan(dueAt);
      const history = await caseHistory(demo().reviewer, caseId);
      expect(history.map((e) => e.type)).toEqual(["submitted", "escalated"]);
      expect(history[1]).toMatchObject({
        fromState: "pending",
        toState: "pending",
        actor: { id: "system", role: "system" },
        escalation: { level: 1, target: "admin", dueAt },
      });
      expect((await escalationsDue(scope(), { which: "overdue", now: dueAt + 1 })).items.map((c) => c.id)).toContain(
        caseId,
      );
      expect((await listReviewQueue(scope(), { escalated: true })).items.map((c) => c.id)).toContain(caseId);

      // The same moment swept again: nothing new. Two hours later: re-notified (level 2).
      await runEscalationSweep({ now: dueAt + 1 });
      expect(await caseHistory(demo().reviewer, caseId)).toHaveLength(2);
      const renotify = after.state.nextEscalationAt as number;
      await runEscalationSweep({ now: renotify });
      expect((await getCase(demo().reviewer, caseId)).state.escalationLevel).toBe(2);

      // A decision ends the chase; the projection still rebuilds to the same thing.
      await recordDecision(demo().reviewer, caseId, { requestId: rid(), outcome: "approved" });
      expect((await getCase(demo().reviewer, caseId)).state.nextEscalationAt).toBeNull();
      await runEscalationSweep({ now: renotify + 10 * HOUR });
      expect((await caseHistory(demo().reviewer, caseId)).map((e) => e.type)).toEqual([
        "submitted",
        "escalated",
        "escalated",
        "decision_recorded",
      ]);
      expect((await projectionDrift(scope())).drifted).toBe(false);
    });

    it("lets a reviewer escalate by hand, but not a member, and never a decided case", async () => {
      const { caseId } = await submitLgv(demo().member);
      expect(await refusal(escalateCase(demo().member, caseId, { requestId: rid(), target: "admin" }))).toMatchObject({
        code: "FORBIDDEN",
      });
      const manual = await escalateCase(demo().reviewer, caseId, {
        requestId: rid(),
        target: "avery@demo",
        notes: "legal",
      });
      expect(manual.event).toMatchObject({
        type: "escalated",
        notes: "legal",
        escalation: { level: 1, target: "avery@demo" },
      });
      await recordDecision(demo().reviewer, caseId, { requestId: rid(), outcome: "rejected" });
      expect(await refusal(escalateCase(demo().reviewer, caseId, { requestId: rid(), target: "admin" }))).toMatchObject(
        {
          code: "INVALID_STATE_TRANSITION",
          details: { from_state: "rejected", requested_action: "escalate" },
        },
      );
    });

    it("leaves cases of adapters without a policy alone", async () => {
      const { caseId } = await submitLgv(actors(suite.tenants, "acme").member);
      const acmeCase = await getCase(actors(suite.tenants, "acme").reviewer, caseId);
      expect(acmeCase.state.dueAt).toBeNull();
      const swept = await runEscalationSweep({ now: Date.now() + 1000 * HOUR });
      expect(swept.escalated.some((e) => e.caseId === caseId)).toBe(false);
    });
  });
}
