import { z } from "zod";
import { requireSession } from "@/lib/auth";
import { decisionLog } from "@/lib/hitl";
import { json, parseQuery } from "@/lib/http";
import { route } from "@/lib/server";
import { assertRange, cursorParam, limitParam, listBody, timeParam } from "../params";

const DecisionQuery = z.strictObject({
  actor: z.string().min(1).max(200).optional(),
  from: timeParam("start").optional(),
  to: timeParam("end").optional(),
  limit: limitParam.optional(),
  cursor: cursorParam.optional(),
});

/** Who decided what and when: decisions, most recent first, optionally by one actor and time range. */
export const GET = route(async (req) => {
  const session = await requireSession(req);
  const q = parseQuery(req, DecisionQuery);
  assertRange("from", q.from, q.to);
  const page = await decisionLog(
    session,
    { actorId: q.actor, from: q.from, to: q.to },
    { limit: q.limit, cursor: q.cursor },
  );
  return json(listBody(page));
});
