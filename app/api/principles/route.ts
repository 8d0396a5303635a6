import { listPrinciples, PrinciplesBody, setPrinciples } from "@/lib/agents";
import { requireRole, requireSession } from "@/lib/auth";
import { json, parseBody } from "@/lib/http";
import { route } from "@/lib/server";

/** The principles autonomous runs validate their drafts against. */
export const GET = route(async (req) => {
  const session = await requireSession(req);
  return json({ status: "success", ...(await listPrinciples(session)) });
});

/** An admin replaces the tenant's principles (an empty list goes back to the defaults). */
export const PUT = route(async (req) => {
  const session = await requireRole(req, "admin");
  const body = await parseBody(req, PrinciplesBody, 64 * 1024);
  return json({ status: "success", ...(await setPrinciples(session, body)) });
});
