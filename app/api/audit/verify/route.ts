import { verifyChain } from "@/lib/audit";
import { requireRole } from "@/lib/auth";
import { json } from "@/lib/http";
import { route } from "@/lib/server";

export const GET = route(async (req) => {
  const session = await requireRole(req, "admin");
  return json(await verifyChain(session));
});
