import { requireSession } from "@/lib/auth";
import { reviewQueueCounts } from "@/lib/hitl";
import { json } from "@/lib/http";
import { route } from "@/lib/server";

/** Counts of open cases: pending, needs clarification, escalated, overdue, by adapter and by priority. */
export const GET = route(async (req) => {
  const session = await requireSession(req);
  return json({ status: "success", counts: await reviewQueueCounts(session) });
});
