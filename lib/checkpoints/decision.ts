import { z } from "zod";
import type { DecisionInput } from "@/lib/hitl";
import { CHECKPOINT_REQUESTS, CheckpointDecision, type CheckpointStatus, type CheckpointTypeName } from "./contract";
import { CHECKPOINT_POLICIES } from "./policies";

/** A checkpoint decision that cannot be applied: the resume value is unreadable or not allowed. */
export class CheckpointDecisionError extends Error {
  constructor(
    message: string,
    readonly issues: { path: string; message: string }[] = [],
  ) {
    super(message);
    this.name = "CheckpointDecisionError";
  }
}

// What the HITL core resumes a run with when its case is decided (resumeValueOf, ./run-link).
const CaseDecision = z.object({
  caseId: z.string(),
  outcome: z.enum(["approved", "rejected"]),
  modifications: z.record(z.string(), z.unknown()).nullable(),
  reason: z.string().nullable(),
  decidedBy: z.object({ id: z.string(), name: z.string().nullable(), role: z.string() }),
});

// A direct yes/no from a run's own UI (the demo workflow's original answer shape).
const YesNo = z.object({ approved: z.boolean(), note: z.string().max(2000).optional() });

/**
 * Reads whatever a run was resumed with — a case's decision, a decision in the contract's own
 * shape, or a plain yes/no — as one typed CheckpointDecision, checked against what the type
 * allows: an action it offers, and an edit only of its editable fields that keeps the request
 * valid.
 */
export function readDecision(
  type: CheckpointTypeName,
  request: Record<string, unknown>,
  value: unknown,
): CheckpointDecision & { caseId?: string } {
  const decision = asDecision(type, value);
  const policy = CHECKPOINT_POLICIES[type];
  if (!policy.actions.includes(decision.action)) {
    throw new CheckpointDecisionError(
      `A ${type} checkpoint takes ${policy.actions.join(", ")}, not ${decision.action}.`,
    );
  }
  if (decision.action === "edit") {
    const outside = Object.keys(decision.edit).filter((key) => !policy.editable.includes(key));
    if (outside.length > 0) {
      throw new CheckpointDecisionError(`Only ${policy.editable.join(", ")} can be edited at a ${type} checkpoint.`, [
        ...outside.map((key) => ({ path: `edit.${key}`, message: "not editable" })),
      ]);
    }
    const edited = CHECKPOINT_REQUESTS[type].safeParse({ ...request, ...decision.edit });
    if (!edited.success) {
      throw new CheckpointDecisionError(
        "The edit does not fit the checkpoint's request.",
        edited.error.issues.map((i) => ({ path: ["edit", ...i.path].join("."), message: i.message })),
      );
    }
  }
  return decision;
}

function asDecision(type: CheckpointTypeName, value: unknown): CheckpointDecision & { caseId?: string } {
  const own = CheckpointDecision.safeParse(value);
  if (own.success) return own.data;
  const kase = CaseDecision.safeParse(value);
  if (kase.success) {
    const { caseId, outcome, modifications, reason, decidedBy } = kase.data;
    const base = {
      caseId,
      decided_by: decidedBy,
      notes: reason,
      timed_out: decidedBy.role === "system" && isTimeout(reason),
    };
    if (outcome === "rejected") return { action: "reject", reason, ...base };
    if (!modifications || Object.keys(modifications).length === 0) return { action: "approve", ...base };
    const response = modifications.response;
    if (CHECKPOINT_POLICIES[type].actions.includes("respond") && typeof response === "string") {
      return { action: "respond", response, ...base };
    }
    return { action: "edit", edit: modifications, ...base };
  }
  const yesNo = YesNo.safeParse(value);
  if (yesNo.success) {
    return yesNo.data.approved
      ? { action: "approve", notes: yesNo.data.note ?? null }
      : { action: "reject", reason: yesNo.data.note ?? null };
  }
  throw new CheckpointDecisionError("The decision is not one this checkpoint understands.", [
    { path: "value", message: "expected {action: approve|reject|edit|respond, …}" },
  ]);
}

/** The system decides timeouts with a reason that starts with this (see timeouts.ts). */
export const TIMEOUT_REASON_PREFIX = "Timed out:";
const isTimeout = (reason: string | null) => Boolean(reason?.startsWith(TIMEOUT_REASON_PREFIX));

/** The checkpoint's status once decided, as the stream part and the checkpoint record show it. */
export function statusOf(decision: CheckpointDecision): CheckpointStatus {
  if (decision.timed_out) return "timeout";
  switch (decision.action) {
    case "approve":
      return "approved";
    case "reject":
      return "rejected";
    case "edit":
      return "modified";
    case "respond":
      return "responded";
  }
}

/** The decision as the HITL core records it: an outcome, an approval's modifications, the notes. */
export function caseDecisionOf(decision: CheckpointDecision): Omit<DecisionInput, "requestId"> {
  const notes = decision.action === "reject" ? (decision.reason ?? decision.notes) : decision.notes;
  const base = notes ? { notes } : {};
  switch (decision.action) {
    case "approve":
      return { outcome: "approved", ...base };
    case "reject":
      return { outcome: "rejected", ...base };
    case "edit":
      return { outcome: "approved", modifications: decision.edit, ...base };
    case "respond":
      return { outcome: "approved", modifications: { response: decision.response }, ...base };
  }
}
