import { requireSession } from "@/lib/auth";
import { answerReviewContext } from "@/lib/chat";
import { deciderViewOf } from "@/lib/checkpoints";
import { caseHistory, getCase } from "@/lib/hitl";
import { json } from "@/lib/http";
import { route } from "@/lib/server";
import { caseIdFrom } from "../../params";

/**
 * One case (payload read as the active schema version, the adapter's summary, refs, state), its
 * history, and what it is about when that lives in Vigil (`context`: the question and sources
 * behind a chat answer under review; null otherwise), and whether the viewer may decide it
 * (`decider`: the separation-of-duties rule's answer, with the reason when not).
 */
export const GET = route<{ params: Promise<{ id: string }> }>(async (req, { params }) => {
  const session = await requireSession(req);
  const caseId = await caseIdFrom(params);
  const kase = await getCase(session, caseId);
  const [history, context, decider] = await Promise.all([
    caseHistory(session, caseId),
    answerReviewContext(session, kase.refs),
    deciderViewOf(session, caseId),
  ]);
  return json({ status: "success", case: kase, history, context, decider });
});
