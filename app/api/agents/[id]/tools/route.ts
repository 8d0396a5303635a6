import { listAgentTools } from "@/lib/agents";
import { requireSession } from "@/lib/auth";
import { json } from "@/lib/http";
import { route } from "@/lib/server";

/** One agent's tools (by id or slug): every tool of the tenant, and whether this agent may use it. */
export const GET = route<{ params: Promise<{ id: string }> }>(async (req, { params }) => {
  const session = await requireSession(req);
  return json({ status: "success", items: await listAgentTools(session, (await params).id) });
});
