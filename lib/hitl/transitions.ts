import type { HitlEventType, HitlOutcome, HitlStateName } from "./contract";

// The HITL state machine, as data. A case is born `pending` by submitCase (not an action on an
// existing case, so not in the matrix). Each cell says where an action leads from a state, or
// why it is refused: `invalid` answers INVALID_STATE_TRANSITION, `already_terminal` answers
// ALREADY_TERMINAL with the decision that won. Refusals write nothing.

export const HITL_ACTIONS = [
  "request_clarification",
  "provide_clarification",
  "approve",
  "reject",
  "escalate",
  // An admin replaces the decision that stands; the case moves to the new decision's state.
  "supersede",
] as const;
export type HitlAction = (typeof HITL_ACTIONS)[number];

export type TransitionCell = HitlStateName | "invalid" | "already_terminal";

export const INITIAL_STATE: HitlStateName = "pending";
export const TERMINAL_STATES: readonly HitlStateName[] = ["approved", "rejected"];

export const TRANSITIONS: Readonly<Record<HitlStateName, Readonly<Record<HitlAction, TransitionCell>>>> = {
  pending: {
    request_clarification: "needs_clarification",
    provide_clarification: "invalid", // nobody asked anything
    approve: "approved",
    reject: "rejected",
    escalate: "pending", // flags the case; it stays where it is
    supersede: "invalid", // nothing decided yet
  },
  needs_clarification: {
    request_clarification: "needs_clarification", // revises the open question (a new event)
    provide_clarification: "pending",
    approve: "approved", // a reviewer (or the system, on timeout) may decide without waiting
    reject: "rejected",
    escalate: "needs_clarification", // the SLA keeps running while the submitter owes an answer
    supersede: "invalid",
  },
  approved: {
    request_clarification: "invalid",
    provide_clarification: "invalid",
    approve: "already_terminal",
    reject: "already_terminal",
    escalate: "invalid", // a decided case has nothing left to chase
    supersede: "approved", // or rejected: the new decision says which
  },
  rejected: {
    request_clarification: "invalid",
    provide_clarification: "invalid",
    approve: "already_terminal",
    reject: "already_terminal",
    escalate: "invalid", // a decided case has nothing left to chase
    supersede: "rejected", // or approved: the new decision says which
  },
};

/** The event an action appends. */
export const EVENT_OF_ACTION: Readonly<Record<HitlAction, HitlEventType>> = {
  request_clarification: "needs_clarification",
  provide_clarification: "clarification_provided",
  approve: "decision_recorded",
  reject: "decision_recorded",
  escalate: "escalated",
  supersede: "decision_superseded",
};

export function actionOfOutcome(outcome: HitlOutcome): HitlAction {
  return outcome === "approved" ? "approve" : "reject";
}

export function isTerminal(state: HitlStateName): boolean {
  return TERMINAL_STATES.includes(state);
}
