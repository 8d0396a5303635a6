import { z } from "zod";
import { requireSession } from "@/lib/auth";
import {
  HITL_LIMITS,
  HITL_OUTCOMES,
  HITL_PRIORITIES,
  HITL_REF_KINDS,
  listCases,
  SubmitCase,
  submitCase,
} from "@/lib/hitl";
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
    adapter: body.adapter,
    payload: body.payload,
    summary: body.summary,
    refs: body.refs,
    priority: body.priority,
  });
  return json({ status: "success", ...result }, { status: result.replayed ? 200 : 201 });
});

const CaseQuery = z
  .strictObject({
    state: statesParam.optional(),
    adapter: z.string().min(1).max(64).optional(),
    priority: z.enum(HITL_PRIORITIES).optional(),
    escalated: booleanParam.optional(),
    outcome: z.enum(HITL_OUTCOMES).optional(),
    decided_by: z.string().min(1).max(200).optional(),
    created_by: z.string().min(1).max(200).optional(),
    decided_from: timeParam("start").optional(),
    decided_to: timeParam("end").optional(),
    created_from: timeParam("start").optional(),
    created_to: timeParam("end").optional(),
    ref_kind: z.enum(HITL_REF_KINDS).optional(),
    ref_id: z.string().min(1).max(HITL_LIMITS.refIdChars).optional(),
    old_schema: booleanParam.optional(),
    sort: z.enum(["created", "decided"]).optional(),
    limit: limitParam.optional(),
    cursor: cursorParam.optional(),
  })
  .refine((q) => (q.ref_kind === undefined) === (q.ref_id === undefined), {
    message: "ref_kind and ref_id go together.",
    path: ["ref_id"],
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
      adapter: q.adapter,
      priority: q.priority,
      escalated: q.escalated,
      outcome: q.outcome,
      decidedBy: q.decided_by,
      createdBy: q.created_by,
      decidedFrom: q.decided_from,
      decidedTo: q.decided_to,
      createdFrom: q.created_from,
      createdTo: q.created_to,
      ref: q.ref_kind && q.ref_id ? { kind: q.ref_kind, id: q.ref_id } : undefined,
      oldSchema: q.old_schema,
    },
    { sort: q.sort, limit: q.limit, cursor: q.cursor },
  );
  return json(listBody(page));
});
