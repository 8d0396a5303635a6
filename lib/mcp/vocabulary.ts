import { z } from "zod";
import {
  type CaseFilter,
  type DecisionInput,
  HITL_LIMITS,
  type HitlRef,
  QUEUE_PAGE_MAX,
  type SubmitCaseInput,
} from "@/lib/hitl";

// The words tool arguments share. Each list is checked against the core's types (`satisfies`),
// so a value the core does not know cannot be offered here.

type CaseState = NonNullable<CaseFilter["state"]>[number];

export const CASE_STATES = [
  "pending",
  "needs_clarification",
  "approved",
  "rejected",
] as const satisfies readonly CaseState[];
export const OPEN_STATES = ["pending", "needs_clarification"] as const satisfies readonly CaseState[];
export const OUTCOMES = ["approved", "rejected"] as const satisfies readonly DecisionInput["outcome"][];
export const PRIORITIES = ["low", "normal", "high", "urgent"] as const satisfies readonly NonNullable<
  SubmitCaseInput["priority"]
>[];
export const REF_KINDS = [
  "run",
  "interrupt",
  "thread",
  "chat_session",
  "external",
] as const satisfies readonly HitlRef["kind"][];

export const requestId = z
  .string()
  .min(1)
  .max(HITL_LIMITS.requestIdChars)
  .describe(
    "Idempotency key, unique per intent (e.g. a UUID). A retry with the same request_id answers the first result " +
      "(replayed: true); reusing it for a different request is refused with IDEMPOTENCY_CONFLICT.",
  );

export const caseId = z.string().min(1).max(200).describe('The case id, e.g. "HITL-…".');

export const adapterFilter = z.string().min(1).max(64).optional().describe("Only cases of this adapter.");

export const ref = z
  .strictObject({ kind: z.enum(REF_KINDS), id: z.string().min(1).max(HITL_LIMITS.refIdChars) })
  .describe("A link to what a case is about: a run, thread, … or your own id (kind external).");

export const page = {
  limit: z.number().int().min(1).max(QUEUE_PAGE_MAX).optional().describe(`Page size, 1–${QUEUE_PAGE_MAX} (20).`),
  cursor: z.string().min(1).max(1000).optional().describe("next_cursor of the previous page, with the same filters."),
};
