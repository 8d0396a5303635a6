import { z } from "zod";
import { requireRole } from "@/lib/auth";
import { HITL_LIMITS, HITL_OUTCOMES, recordDecision } from "@/lib/hitl";
import { json, parseBody } from "@/lib/http";
import { route } from "@/lib/server";
import { actorOf, caseIdFrom, jsonObject, requestIdField } from "../../../params";

const Decision = z.strictObject({
  request_id: requestIdField,
  outcome: z.enum(HITL_OUTCOMES),
  modifications: jsonObject.optional(),
  reason: z.string().trim().min(1).max(HITL_LIMITS.reasonChars).optional(),
});

/**
 * The terminal decision (reviewer or admin). The first one wins: a later one answers 409
 * ALREADY_TERMINAL whose `details.decision` is the decision that stands.
 */
export const POST = route<{ params: Promise<{ id: string }> }>(async (req, { params }) => {
  const session = await requireRole(req, "reviewer");
  const caseId = await caseIdFrom(params);
  const body = await parseBody(req, Decision, HITL_LIMITS.payloadBytes + 64 * 1024);
  const result = await recordDecision(actorOf(session), caseId, {
    requestId: body.request_id,
    outcome: body.outcome,
    modifications: body.modifications,
    reason: body.reason,
  });
  return json({ status: "success", ...result });
});
