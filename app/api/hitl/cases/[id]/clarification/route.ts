import { z } from "zod";
import { requireSession } from "@/lib/auth";
import { ActorInput, HITL_LIMITS, Notes, provideClarification } from "@/lib/hitl";
import { json, parseBody } from "@/lib/http";
import { route } from "@/lib/server";
import { actorOf, caseIdFrom, requestIdField } from "../../../params";

const Clarification = z.strictObject({
  request_id: requestIdField,
  // Missing or blank: ANSWER_REQUIRED, from the command, as the design names it.
  answer: z.string().max(HITL_LIMITS.answerChars).optional(),
  notes: Notes.optional(),
  actor: ActorInput.optional(),
});

/**
 * The answer to a case's open question, by the person it was asked of (the submitter, or the
 * owner of the private content the case carries) or a reviewer, under the name the server knows;
 * the case is `pending` again.
 */
export const POST = route<{ params: Promise<{ id: string }> }>(async (req, { params }) => {
  const session = await requireSession(req);
  const caseId = await caseIdFrom(params);
  const body = await parseBody(req, Clarification, 64 * 1024);
  const result = await provideClarification(actorOf(session), caseId, {
    requestId: body.request_id,
    answer: body.answer,
    notes: body.notes,
    actor: body.actor,
  });
  return json({ status: "success", ...result });
});
