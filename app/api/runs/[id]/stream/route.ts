import { requireSession } from "@/lib/auth";
import { errors } from "@/lib/errors";
import { withKeepAlive } from "@/lib/http";
import { runEventStream, sseHeaders, visibleRun } from "@/lib/runs";
import { route } from "@/lib/server";
import { runIdFrom } from "../../run-id";

export const dynamic = "force-dynamic";

/** An event id as the stream writes it: decimal digits only (no sign, exponent, hex or blanks). */
function cursorOf(req: Request): number {
  const header = req.headers.get("last-event-id");
  const query = new URL(req.url).searchParams.get("after");
  for (const [field, raw] of [
    ["Last-Event-ID", header],
    ["after", query],
  ] as const) {
    if (raw !== null && !(/^\d{1,16}$/.test(raw) && Number.isSafeInteger(Number(raw)))) {
      throw errors.invalidField(field, "Must be an event id: a non-negative integer in decimal.");
    }
  }
  return Number(header ?? query ?? "0");
}

/** Re-attaches to a run: `Last-Event-ID` (or `?after=`) names the last event the client has. */
export const GET = route<{ params: Promise<{ id: string }> }>(async (req, { params }) => {
  const session = await requireSession(req);
  const runId = await runIdFrom(params);
  const after = cursorOf(req);
  const run = await visibleRun(session, runId);
  // No client has an event the log had not written when we looked: a cursor past the end is
  // the end, so the stream of a finished run ends at once instead of waiting for it.
  return new Response(withKeepAlive(runEventStream(session, runId, Math.min(after, run.lastSeq), req.signal)), {
    headers: sseHeaders(),
  });
});
