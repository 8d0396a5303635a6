import { z } from "zod";
import { listAuditSessions } from "@/lib/audit";
import { requireRole } from "@/lib/auth";
import { parseQuery } from "@/lib/http";
import { route } from "@/lib/server";
import { assertRange, booleanParam } from "../../hitl/params";
import { auditListQuery, pageResponse } from "../list-query";

const SessionsQuery = auditListQuery({
  has_phi: booleanParam.optional(),
  has_errors: booleanParam.optional(),
  agent: z.string().trim().min(1).max(200).optional(),
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
  return pageResponse(page);
});
