import { requireSession } from "@/lib/auth";
import { caseHistory } from "@/lib/hitl";
import { json } from "@/lib/http";
import { route } from "@/lib/server";
import { caseIdFrom } from "../../../params";

/** Every event of a case, in order. */
export const GET = route<{ params: Promise<{ id: string }> }>(async (req, { params }) => {
  const session = await requireSession(req);
  const caseId = await caseIdFrom(params);
  const events = await caseHistory(session, caseId);
  return json({ status: "success", case_id: caseId, count: events.length, items: events });
});
