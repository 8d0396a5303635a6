import { z } from "zod";
import { AUDIT_PAGE_MAX, listAuditSessions } from "@/lib/audit";
import { requireRole } from "@/lib/auth";
import { json, parseQuery } from "@/lib/http";
import { route } from "@/lib/server";
import { assertRange, booleanParam, timeParam } from "../../hitl/params";

const SessionsQuery = z.strictObject({
  from: timeParam("start").optional(),
  to: timeParam("end").optional(),
  has_phi: booleanParam.optional(),
  has_errors: booleanParam.optional(),
  agent: z.string().trim().min(1).max(200).optional(),
  limit: z
    .string()
    .regex(/^\d+$/, "Must be a whole number.")
    .transform(Number)
    .pipe(z.number().int().min(1).max(AUDIT_PAGE_MAX))
    .optional(),
  cursor: z.string().min(1).max(1000).optional(),
});

/** The tenant's sessions with their summed trace (session_metrics), most recently active first, for admins. */
export const GET = route(async (req) => {
  const session = await requireRole(req, "admin");
  const q = parseQuery(req, SessionsQuery);
  assertRange("from", q.from, q.to);
  const page = await listAuditSessions(session, {
    from: q.from,
    to: q.to,
    hasPhi: q.has_phi,
    hasErrors: q.has_errors,
    agent: q.agent,
    limit: q.limit,
    cursor: q.cursor,
  });
  return json({ status: "success", count: page.items.length, items: page.items, next_cursor: page.nextCursor });
});
