import { requireSession } from "@/lib/auth";
import { listSlaPolicies } from "@/lib/hitl";
import { json, route } from "@/lib/http";

/** The tenant's service levels, one per adapter that has one. */
export const GET = route(async (req) => {
  const session = await requireSession(req);
  const items = await listSlaPolicies(session);
  return json({ status: "success", count: items.length, items });
});
