import { requireSession } from "@/lib/auth";
import { errors } from "@/lib/errors";
import { runEventStream, sseHeaders, visibleRun } from "@/lib/runs";
import { route } from "@/lib/server";
import { runIdFrom } from "../../run-id";

export const dynamic = "force-dynamic";

/** Re-attaches to a run: `Last-Event-ID` (or `?after=`) names the last event the client has. */
export const GET = route<{ params: Promise<{ id: string }> }>(async (req, { params }) => {
  const session = await requireSession(req);
  const runId = await runIdFrom(params);
  const raw = req.headers.get("last-event-id") ?? new URL(req.url).searchParams.get("after") ?? "0";
  const after = Number(raw);
  if (!Number.isInteger(after) || after < 0) {
    throw errors.invalidField("after", "Must be a non-negative integer event id.");
  }
  await visibleRun(session, runId);
  return new Response(runEventStream(session, runId, after, req.signal), { headers: sseHeaders() });
});
