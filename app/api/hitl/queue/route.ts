import { z } from "zod";
import { requireSession } from "@/lib/auth";
import { HITL_PRIORITIES, listReviewQueue } from "@/lib/hitl";
import { json, parseQuery } from "@/lib/http";
import { route } from "@/lib/server";
import { booleanParam, cursorParam, limitParam, listBody, statesParam } from "../params";

const QueueQuery = z.strictObject({
  state: statesParam.optional(),
  adapter_id: z.string().min(1).max(64).optional(),
  priority: z.enum(HITL_PRIORITIES).optional(),
  escalated: booleanParam.optional(),
  limit: limitParam.optional(),
  cursor: cursorParam.optional(),
});

/** The review queue: pending cases newest first, or the given states (`state=needs_clarification`, …). */
export const GET = route(async (req) => {
  const session = await requireSession(req);
  const q = parseQuery(req, QueueQuery);
  const page = await listReviewQueue(session, {
    state: q.state,
    adapter: q.adapter_id,
    priority: q.priority,
    escalated: q.escalated,
    limit: q.limit,
    cursor: q.cursor,
  });
  return json(listBody(page));
});
