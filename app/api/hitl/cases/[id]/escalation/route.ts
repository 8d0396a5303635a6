import { z } from "zod";
import { requireRole } from "@/lib/auth";
import { escalateCase, Notes } from "@/lib/hitl";
import { json, parseBody } from "@/lib/http";
import { route } from "@/lib/server";
import { actorOf, caseIdFrom, requestIdField } from "../../../params";

const Escalation = z.strictObject({
  request_id: requestIdField,
  target: z.string().trim().min(1).max(200),
  notes: Notes.optional(),
});

/** Flags an open case for someone with more authority (`target`: a role or a user id). The state stays. */
export const POST = route<{ params: Promise<{ id: string }> }>(async (req, { params }) => {
  const session = await requireRole(req, "reviewer");
  const caseId = await caseIdFrom(params);
  const body = await parseBody(req, Escalation, 64 * 1024);
  const result = await escalateCase(actorOf(session), caseId, {
    requestId: body.request_id,
    target: body.target,
    notes: body.notes,
  });
  return json({ status: "success", ...result });
});
