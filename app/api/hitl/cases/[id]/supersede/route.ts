import { requireRole } from "@/lib/auth";
import { supersedeDecision } from "@/lib/hitl";
import { json, parseBody } from "@/lib/http";
import { route } from "@/lib/server";
import { actorOf, caseIdFrom, DECISION_BODY_LIMIT, DecisionBody } from "../../../params";

/**
 * Admin: replaces the decision that stands on a decided case (`decision`, with the reason in
 * `notes`, required). The first decision stays in the history, named by the new event's
 * `supersedesEventId`. 409 INVALID_STATE_TRANSITION on a case not decided yet.
 */
export const POST = route<{ params: Promise<{ id: string }> }>(async (req, { params }) => {
  const session = await requireRole(req, "admin");
  const caseId = await caseIdFrom(params);
  const body = await parseBody(req, DecisionBody, DECISION_BODY_LIMIT);
  const result = await supersedeDecision(actorOf(session), caseId, {
    requestId: body.request_id,
    outcome: body.decision,
    modifications: body.modifications,
    notes: body.notes,
    actor: body.actor,
  });
  return json({ status: "success", ...result });
});
