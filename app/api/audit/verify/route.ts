import { verifyChain } from "@/lib/audit";
import { requireRole } from "@/lib/auth";
import { json, route } from "@/lib/http";

export const GET = route(async (req) => {
  const session = await requireRole(req, "admin");
  return json(await verifyChain(session));
});
