import { z } from "zod";
import { AUDIT_PAGE_MAX, listPhiAccess } from "@/lib/audit";
import { requireRole } from "@/lib/auth";
import { json, parseQuery } from "@/lib/http";
import { route } from "@/lib/server";
import { assertRange, timeParam } from "../../hitl/params";

const PhiQuery = z.strictObject({
  user: z.string().trim().min(1).max(200).optional(),
  agent: z.string().trim().min(1).max(200).optional(),
  from: timeParam("start").optional(),
  to: timeParam("end").optional(),
  limit: z
    .string()
    .regex(/^\d+$/, "Must be a whole number.")
    .transform(Number)
    .pipe(z.number().int().min(1).max(AUDIT_PAGE_MAX))
    .optional(),
  cursor: z.string().min(1).max(1000).optional(),
});

/** Every trace event that touched PHI, newest first, with what it touched and for whom, for admins. */
export const GET = route(async (req) => {
  const session = await requireRole(req, "admin");
  const q = parseQuery(req, PhiQuery);
  assertRange("from", q.from, q.to);
  const page = await listPhiAccess(session, {
    userId: q.user,
    agent: q.agent,
    from: q.from,
    to: q.to,
    limit: q.limit,
    cursor: q.cursor,
  });
  return json({ status: "success", count: page.items.length, items: page.items, next_cursor: page.nextCursor });
});
