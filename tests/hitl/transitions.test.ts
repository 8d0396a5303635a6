import { beforeAll, describe, expect, it } from "vitest";
import type { HitlStateName } from "@/lib/hitl";
import {
  caseHistory,
  escalateCase,
  getCase,
  HITL_ACTIONS,
  HITL_STATES,
  type HitlAction,
  type HitlActor,
  provideClarification,
  recordDecision,
  registerDefaultAdapters,
  requestClarification,
  supersedeDecision,
  TRANSITIONS,
} from "@/lib/hitl";
import { appTargets } from "../support/databases";
import { seededDatabase } from "../support/seeded";
import { actors, refusal, rid, submitLgv } from "./support";

function perform(
  actor: HitlActor,
  caseId: string,
  action: HitlAction,
  requestId = rid(action),
  options: { question?: string; outcome?: "approved" | "rejected" } = {},
) {
  switch (action) {
    case "request_clarification":
      return requestClarification(actor, caseId, {
        requestId,
        question: options.question ?? "Which firmware is LGV-07 on?",
      });
    case "provide_clarification":
      return provideClarification(actor, caseId, { requestId, answer: "4.2.1" });
    case "approve":
      return recordDecision(actor, caseId, { requestId, outcome: "approved" });
    case "reject":
      return recordDecision(actor, caseId, { requestId, outcome: "rejected", notes: "not enough evidence" });
    case "escalate":
      return escalateCase(actor, caseId, { requestId, target: "admin", notes: "needs a second opinion" });
    case "supersede":
      return supersedeDecision(actor, caseId, {
        requestId,
        outcome: options.outcome ?? "rejected",
        notes: "the first decision missed the reflector survey",
      });
  }
}

/** The design's name for an action in INVALID_STATE_TRANSITION (approve and reject are record_decision). */
const DESIGN_ACTION: Partial<Record<HitlAction, string>> = {
  approve: "record_decision",
  reject: "record_decision",
  supersede: "supersede_decision",
};

/** The shortest path to a state from a fresh submission. */
const PATH_TO: Record<HitlStateName, HitlAction[]> = {
  pending: [],
  needs_clarification: ["request_clarification"],
  approved: ["approve"],
  rejected: ["reject"],
};

describe("the transition matrix as data", () => {
  it("has a cell for every state and action, and terminal states allow nothing but ALREADY_TERMINAL or an admin's supersede", () => {
    for (const from of HITL_STATES) {
      for (const action of HITL_ACTIONS) expect(TRANSITIONS[from][action]).toBeDefined();
    }
    for (const from of ["approved", "rejected"] as const) {
      for (const [action, cell] of Object.entries(TRANSITIONS[from])) {
        if (action === "supersede") expect(cell).toBe(from);
        else expect(["invalid", "already_terminal"]).toContain(cell);
      }
    }
    // Only a decided case has a decision to supersede.
    expect(TRANSITIONS.pending.supersede).toBe("invalid");
    expect(TRANSITIONS.needs_clarification.supersede).toBe("invalid");
  });
});

for (const target of appTargets()) {
  describe(`HITL transitions on ${target.name}`, () => {
    const suite = seededDatabase(target);
    const reviewer = () => actors(suite.tenants).reviewer;
    // Superseding a decision is an admin's; every other action is a reviewer's.
    const actorFor = (action: HitlAction) => (action === "supersede" ? actors(suite.tenants).admin : reviewer());

    beforeAll(async () => {
      await registerDefaultAdapters({ tenantId: suite.tenants.demo });
    });

    for (const from of HITL_STATES) {
      for (const action of HITL_ACTIONS) {
        const cell = TRANSITIONS[from][action];
        it(`${from} × ${action} → ${cell}`, async () => {
          const { caseId } = await submitLgv(actors(suite.tenants).member);
          for (const step of PATH_TO[from]) await perform(reviewer(), caseId, step);
          const before = await getCase(reviewer(), caseId);
          const historyBefore = await caseHistory(reviewer(), caseId);
          expect(before.state.state).toBe(from);

          // Asking again while a question is open revises it: the new question must differ.
          const options = {
            question: from === "needs_clarification" ? "Which reflector map version is loaded?" : undefined,
            outcome: cell === "approved" || cell === "rejected" ? cell : undefined,
          };
          const act = () => perform(actorFor(action), caseId, action, rid(action), options);

          if (cell === "invalid" || cell === "already_terminal") {
            const error = await refusal(act());
            expect(error.kind).toBe("conflict");
            if (cell === "invalid") {
              expect(error.code).toBe("INVALID_STATE_TRANSITION");
              expect(error.details).toEqual({ from_state: from, requested_action: DESIGN_ACTION[action] ?? action });
            } else {
              expect(error.code).toBe("ALREADY_TERMINAL");
              expect(error.details).toMatchObject({
                case_id: caseId,
                state: from,
                decision: {
                  event_type: "decision_recorded",
                  decision_outcome: from,
                  event_id: before.state.decisionEventId,
                },
              });
            }
            // Nothing was written.
            expect(await caseHistory(reviewer(), caseId)).toEqual(historyBefore);
            expect(await getCase(reviewer(), caseId)).toEqual(before);
          } else {
            const result = await act();
            if (!result) expect.fail(`no command performs ${action}`);
            expect(result).toMatchObject({ caseId, state: cell, replayed: false });
            expect(result.event).toMatchObject({ fromState: from, toState: cell, seq: historyBefore.length + 1 });
            const after = await getCase(reviewer(), caseId);
            expect(after.state.state).toBe(cell);
            expect(after.state.lastEventId).toBe(result.event.id);
            expect(await caseHistory(reviewer(), caseId)).toHaveLength(historyBefore.length + 1);
          }
        });
      }
    }
  });
}
