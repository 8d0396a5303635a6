import { z } from "zod";
import {
  CaseRef,
  HITL_OUTCOMES,
  HITL_PRIORITIES,
  HITL_STATES,
  type HitlStateName,
  QUEUE_PAGE_MAX,
  RequestId,
} from "@/lib/hitl";

// The words tool arguments share: the review queue's own vocabulary (lib/hitl's contract).

export const CASE_STATES = HITL_STATES;
export const OPEN_STATES = ["pending", "needs_clarification"] as const satisfies readonly HitlStateName[];
export const OUTCOMES = HITL_OUTCOMES;
export const PRIORITIES = HITL_PRIORITIES;
export { RequestId as requestId };

/** A ref to filter by: its type and value, and its key when it matters. */
export const refFilter = CaseRef.partial({ ref_key: true });

export const caseId = z.string().min(1).max(200).describe('The case id, e.g. "HITL-…".');

export const adapterFilter = z.string().min(1).max(64).optional().describe("Only cases of this adapter.");

export const page = {
  limit: z.number().int().min(1).max(QUEUE_PAGE_MAX).optional().describe(`Page size, 1–${QUEUE_PAGE_MAX} (20).`),
  cursor: z.string().min(1).max(1000).optional().describe("next_cursor of the previous page, with the same filters."),
};
