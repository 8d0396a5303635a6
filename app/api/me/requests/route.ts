import { requireSession } from "@/lib/auth";
import { myAnswerReviews } from "@/lib/chat";
import { listCases, openCasesOfOwnRuns } from "@/lib/hitl";
import { json } from "@/lib/http";
import { route } from "@/lib/server";

export const dynamic = "force-dynamic";

/**
 * What the caller is waiting on from reviewers: their answers under review (across their chat
 * sessions), the open checkpoints of runs they started (`runs`: a reviewer decides them, or asks
 * the owner a question), and the cases they submitted, with how many wait on the caller (a
 * reviewer's question).
 */
export const GET = route(async (req) => {
  const session = await requireSession(req);
  const [answers, runs, submitted] = await Promise.all([
    myAnswerReviews(session),
    openCasesOfOwnRuns(session),
    listCases(session, { createdBy: session.userId }, { limit: 50 }),
  ]);
  const asked = (items: { state: string }[]) => items.filter((c) => c.state === "needs_clarification").length;
  const waitingOnYou =
    answers.filter((a) => a.status === "needs_clarification").length + asked(runs) + asked(submitted.items);
  return json({ status: "success", waitingOnYou, answers, runs, cases: submitted.items });
});
