import { z } from "zod";
import { requireSession } from "@/lib/auth";
import { CaseRef, HITL_LIMITS, HITL_OUTCOMES, HITL_PRIORITIES, listCases, SubmitCase, submitCase } from "@/lib/hitl";
import { json, parseBody, parseQuery } from "@/lib/http";
import { route } from "@/lib/server";
import {
  actorOf,
  assertRange,
  booleanParam,
  cursorParam,
  limitParam,
  listBody,
  statesParam,
  timeParam,
} from "../params";

/** A case payload is at most HITL_LIMITS.payloadBytes; the envelope gets some room on top. */
const SUBMIT_BODY_LIMIT = HITL_LIMITS.payloadBytes + 64 * 1024;

/** Opens a case (any member). 201, or 200 with `replayed: true` when the request_id was already used for it. */
export const POST = route(async (req) => {
  const session = await requireSession(req);
  const body = await parseBody(req, SubmitCase, SUBMIT_BODY_LIMIT);
  const result = await submitCase(actorOf(session), {
    requestId: body.request_id,
    adapter: body.adapter_id,
    caseType: body.case_type,
    title: body.title,
    payload: body.payload,
    summary: body.summary,
    submitter: body.submitter,
    refs: body.refs,
    priority: body.priority,
    confidence: body.confidence,
  });
  return json({ status: "success", ...result }, { status: result.replayed ? 200 : 201 });
});

const CaseQuery = z
  .strictObject({
    state: statesParam.optional(),
    adapter_id: z.string().min(1).max(64).optional(),
    priority: z.enum(HITL_PRIORITIES).optional(),
    escalated: booleanParam.optional(),
    decision_outcome: z.enum(HITL_OUTCOMES).optional(),
    decided_by: z.string().min(1).max(200).optional(),
    submitter_id: z.string().min(1).max(200).optional(),
    decided_from: timeParam("start").optional(),
    decided_to: timeParam("end").optional(),
    created_from: timeParam("start").optional(),
    created_to: timeParam("end").optional(),
    ref_type: CaseRef.shape.ref_type.optional(),
    ref_key: CaseRef.shape.ref_key.optional(),
    ref_value: CaseRef.shape.ref_value.optional(),
    old_schema: booleanParam.optional(),
    sort: z.enum(["created", "decided"]).optional(),
    limit: limitParam.optional(),
    cursor: cursorParam.optional(),
  })
  .refine((q) => (q.ref_type === undefined) === (q.ref_value === undefined), {
    message: "ref_type and ref_value go together (ref_key is optional).",
    path: ["ref_value"],
  })
  .refine((q) => q.ref_key === undefined || q.ref_type !== undefined, {
    message: "ref_key needs ref_type and ref_value.",
    path: ["ref_key"],
  });

/** Cases matching every given filter, newest first (`sort=decided`: most recently decided first). */
export const GET = route(async (req) => {
  const session = await requireSession(req);
  const q = parseQuery(req, CaseQuery);
  assertRange("decided_from", q.decided_from, q.decided_to);
  assertRange("created_from", q.created_from, q.created_to);
  const page = await listCases(
    session,
    {
      state: q.state,
      adapter: q.adapter_id,
      priority: q.priority,
      escalated: q.escalated,
      outcome: q.decision_outcome,
      decidedBy: q.decided_by,
      createdBy: q.submitter_id,
      decidedFrom: q.decided_from,
      decidedTo: q.decided_to,
      createdFrom: q.created_from,
      createdTo: q.created_to,
      ref: q.ref_type && q.ref_value ? { ref_type: q.ref_type, ref_key: q.ref_key, ref_value: q.ref_value } : undefined,
      oldSchema: q.old_schema,
    },
    { sort: q.sort, limit: q.limit, cursor: q.cursor },
  );
  return json(listBody(page));
});
