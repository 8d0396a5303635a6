import { z } from "zod";
import { requireSession } from "@/lib/auth";
import { escalationsDue } from "@/lib/hitl";
import { json, parseQuery } from "@/lib/http";
import { route } from "@/lib/server";
import { cursorParam, limitParam, listBody } from "../params";

const HOUR_MS = 3_600_000;

const EscalationQuery = z.strictObject({
  which: z.enum(["due", "overdue", "all"]).optional(),
  horizon_hours: z
    .string()
    .regex(/^\d+(\.\d+)?$/, "Must be a number of hours.")
    .transform(Number)
    .pipe(z.number().positive().max(8760))
    .optional(),
  limit: limitParam.optional(),
  cursor: cursorParam.optional(),
});

/** Open cases with a deadline: overdue ones, ones due within `horizon_hours` (24), or both; soonest first. */
export const GET = route(async (req) => {
  const session = await requireSession(req);
  const q = parseQuery(req, EscalationQuery);
  const page = await escalationsDue(session, {
    which: q.which,
    horizonMs: q.horizon_hours === undefined ? undefined : q.horizon_hours * HOUR_MS,
    limit: q.limit,
    cursor: q.cursor,
  });
  return json(listBody(page));
});
