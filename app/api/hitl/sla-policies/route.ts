import { requireSession } from "@/lib/auth";
import { listSlaPolicies } from "@/lib/hitl";
import { json } from "@/lib/http";
import { route } from "@/lib/server";

/** The tenant's service levels, one per adapter that has one. */
export const GET = route(async (req) => {
  const session = await requireSession(req);
  const items = await listSlaPolicies(session);
  return json({ status: "success", count: items.length, items });
});
