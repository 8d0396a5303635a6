import { z } from "zod";
import { AUDIT_PAGE_MAX, listAuditDecisions } from "@/lib/audit";
import { requireRole } from "@/lib/auth";
import { json, parseQuery } from "@/lib/http";
import { route } from "@/lib/server";
import { assertRange, timeParam } from "../../hitl/params";

const DecisionsQuery = z.strictObject({
  operator: z.string().trim().min(1).max(200).optional(),
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

/** Every HITL decision of the tenant with its actor, notes, modifications and latency, for admins. */
export const GET = route(async (req) => {
  const session = await requireRole(req, "admin");
  const q = parseQuery(req, DecisionsQuery);
  assertRange("from", q.from, q.to);
  const page = await listAuditDecisions(session, {
    operator: q.operator,
    from: q.from,
    to: q.to,
    limit: q.limit,
    cursor: q.cursor,
  });
  return json({ status: "success", count: page.items.length, items: page.items, next_cursor: page.nextCursor });
});
