import { z } from "zod";
import { listPhiAccess } from "@/lib/audit";
import { requireRole } from "@/lib/auth";
import { parseQuery } from "@/lib/http";
import { route } from "@/lib/server";
import { assertRange } from "../../hitl/params";
import { auditListQuery, pageResponse } from "../list-query";

const PhiQuery = auditListQuery({
  user: z.string().trim().min(1).max(200).optional(),
  agent: z.string().trim().min(1).max(200).optional(),
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
  return pageResponse(page);
});
