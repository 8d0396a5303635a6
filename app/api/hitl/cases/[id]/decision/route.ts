import { requireRole } from "@/lib/auth";
import { recordDecision } from "@/lib/hitl";
import { json, parseBody } from "@/lib/http";
import { route } from "@/lib/server";
import { actorOf, caseIdFrom, DECISION_BODY_LIMIT, DecisionBody } from "../../../params";

/**
 * The terminal decision (reviewer or admin): `decision` approved | rejected, `notes`, optional
 * `modifications` and `actor`. The first one wins: a later one answers 409 ALREADY_TERMINAL
 * whose `details.decision` is the decision that stands.
 */
export const POST = route<{ params: Promise<{ id: string }> }>(async (req, { params }) => {
  const session = await requireRole(req, "reviewer");
  const caseId = await caseIdFrom(params);
  const body = await parseBody(req, DecisionBody, DECISION_BODY_LIMIT);
  const result = await recordDecision(actorOf(session), caseId, {
    requestId: body.request_id,
    outcome: body.decision,
    modifications: body.modifications,
    notes: body.notes,
    actor: body.actor,
  });
  return json({ status: "success", ...result });
});
