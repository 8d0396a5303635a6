import { z } from "zod";
import { listAuditRuns } from "@/lib/audit";
import { AUDIT_RUN_STATUSES } from "@/lib/audit/contract";
import { requireRole } from "@/lib/auth";
import { parseQuery } from "@/lib/http";
import { route } from "@/lib/server";
import { assertRange, booleanParam } from "../../hitl/params";
import { auditListQuery, pageResponse } from "../list-query";
import { readerOf } from "../reader";

const RunsQuery = auditListQuery({
  agent: z.string().trim().min(1).max(200).optional(),
  user: z.string().trim().min(1).max(200).optional(),
  status: z.enum(AUDIT_RUN_STATUSES).optional(),
  has_violations: booleanParam.optional(),
  has_phi: booleanParam.optional(),
  session: z.string().trim().min(1).max(500).optional(),
});

/** Every run of the tenant with its trace totals, newest first, for admins. */
export const GET = route(async (req) => {
  const session = await requireRole(req, "admin");
  const q = parseQuery(req, RunsQuery);
  assertRange("from", q.from, q.to);
  const page = await listAuditRuns(readerOf(session), {
    agent: q.agent,
    userId: q.user,
    status: q.status,
    from: q.from,
    to: q.to,
    hasViolations: q.has_violations,
    hasPhi: q.has_phi,
    session: q.session,
    limit: q.limit,
    cursor: q.cursor,
  });
  return pageResponse(page);
});
