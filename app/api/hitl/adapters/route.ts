import { requireSession } from "@/lib/auth";
import { listAdapters } from "@/lib/hitl";
import { json } from "@/lib/http";
import { route } from "@/lib/server";

/** Every adapter a case can be submitted to, with its schema versions and the active one. */
export const GET = route(async (req) => {
  const session = await requireSession(req);
  const items = await listAdapters(session);
  return json({ status: "success", count: items.length, items });
});
