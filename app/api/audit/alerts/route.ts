import { evaluateAlerts } from "@/lib/audit";
import { requireRole } from "@/lib/auth";
import { json } from "@/lib/http";
import { route } from "@/lib/server";

/** Every alert rule of the tenant, evaluated now: value, threshold, state and recent history. */
export const GET = route(async (req) => {
  const session = await requireRole(req, "admin");
  return json({ status: "success", ...(await evaluateAlerts(session)) });
});
