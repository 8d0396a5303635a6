import { z } from "zod";
import { listAuditDecisions } from "@/lib/audit";
import { requireRole } from "@/lib/auth";
import { parseQuery } from "@/lib/http";
import { route } from "@/lib/server";
import { assertRange } from "../../hitl/params";
import { auditListQuery, pageResponse } from "../list-query";

const DecisionsQuery = auditListQuery({
  operator: z.string().trim().min(1).max(200).optional(),
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
  return pageResponse(page);
});
