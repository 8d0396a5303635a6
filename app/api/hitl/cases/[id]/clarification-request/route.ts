import { z } from "zod";
import { requireRole } from "@/lib/auth";
import { ActorInput, HITL_LIMITS, Notes, requestClarification } from "@/lib/hitl";
import { json, parseBody } from "@/lib/http";
import { route } from "@/lib/server";
import { actorOf, caseIdFrom, requestIdField } from "../../../params";

const ClarificationRequest = z.strictObject({
  request_id: requestIdField,
  // Missing or blank: QUESTION_REQUIRED, from the command, as the design names it.
  question: z.string().max(HITL_LIMITS.questionChars).optional(),
  notes: Notes.optional(),
  actor: ActorInput.optional(),
});

/** A reviewer asks the submitter a question; the case waits in `needs_clarification`. */
export const POST = route<{ params: Promise<{ id: string }> }>(async (req, { params }) => {
  const session = await requireRole(req, "reviewer");
  const caseId = await caseIdFrom(params);
  const body = await parseBody(req, ClarificationRequest, 64 * 1024);
  const result = await requestClarification(actorOf(session), caseId, {
    requestId: body.request_id,
    question: body.question,
    notes: body.notes,
    actor: body.actor,
  });
  return json({ status: "success", ...result });
});
