import { requireSession } from "@/lib/auth";
import { caseHistory, getCase } from "@/lib/hitl";
import { json } from "@/lib/http";
import { route } from "@/lib/server";
import { caseIdFrom } from "../../params";

/** One case (payload read as the active schema version, the adapter's summary, refs, state) and its history. */
export const GET = route<{ params: Promise<{ id: string }> }>(async (req, { params }) => {
  const session = await requireSession(req);
  const caseId = await caseIdFrom(params);
  const kase = await getCase(session, caseId);
  const history = await caseHistory(session, caseId);
  return json({ status: "success", case: kase, history });
});
