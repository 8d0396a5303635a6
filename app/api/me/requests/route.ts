import { requireSession } from "@/lib/auth";
import { myAnswerReviews } from "@/lib/chat";
import { listCases } from "@/lib/hitl";
import { json } from "@/lib/http";
import { route } from "@/lib/server";

export const dynamic = "force-dynamic";

/**
 * What the caller is waiting on from reviewers: their answers under review (across their chat
 * sessions) and the cases they submitted, with how many wait on the caller (a reviewer's question).
 */
export const GET = route(async (req) => {
  const session = await requireSession(req);
  const [answers, submitted] = await Promise.all([
    myAnswerReviews(session),
    listCases(session, { createdBy: session.userId }, { limit: 50 }),
  ]);
  const waitingOnYou =
    answers.filter((a) => a.status === "needs_clarification").length +
    submitted.items.filter((c) => c.state === "needs_clarification").length;
  return json({ status: "success", waitingOnYou, answers, cases: submitted.items });
});
