import { requireSession } from "@/lib/auth";
import { waitingCheckpointOf } from "@/lib/checkpoints";
import { json } from "@/lib/http";
import { getRun } from "@/lib/runs";
import { route } from "@/lib/server";
import { runIdFrom } from "../run-id";

export const GET = route<{ params: Promise<{ id: string }> }>(async (req, { params }) => {
  const session = await requireSession(req);
  const run = await getRun(session, await runIdFrom(params));
  // The checkpoint it waits at, with its case: what a client decides without replaying the stream.
  const waitingOn = run.status === "interrupted" ? await waitingCheckpointOf(session, run.id) : null;
  return json({ status: "success", run: { ...run, waitingOn } });
});
