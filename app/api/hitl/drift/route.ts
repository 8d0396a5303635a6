import { requireRole } from "@/lib/auth";
import { projectionDrift } from "@/lib/hitl";
import { json } from "@/lib/http";
import { route } from "@/lib/server";

/** Admin: compares the live projection with one recomputed from the events (writes nothing). */
export const GET = route(async (req) => {
  const session = await requireRole(req, "admin");
  return json({ status: "success", ...(await projectionDrift(session)) });
});
