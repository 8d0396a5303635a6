import { requireSession } from "@/lib/auth";
import { deciderViewOf, waitingCheckpointOf } from "@/lib/checkpoints";
import { json } from "@/lib/http";
import { getRun } from "@/lib/runs";
import { route } from "@/lib/server";
import { runIdFrom } from "../run-id";

export const GET = route<{ params: Promise<{ id: string }> }>(async (req, { params }) => {
  const session = await requireSession(req);
  const run = await getRun(session, await runIdFrom(params));
  // The checkpoint it waits at, with its case: what a client decides without replaying the stream.
  // With whether this viewer may decide it (the separation-of-duties rule), so a card hides what it may not do.
  const waiting = run.status === "interrupted" ? await waitingCheckpointOf(session, run.id) : null;
  const waitingOn = waiting ? { ...waiting, decider: await deciderViewOf(session, waiting.caseId) } : null;
  return json({ status: "success", run: { ...run, waitingOn } });
});
