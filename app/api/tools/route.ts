import { listTools } from "@/lib/agents";
import { requireSession } from "@/lib/auth";
import { json } from "@/lib/http";
import { route } from "@/lib/server";

/** The tools the tenant's agents can use in autonomous runs, with their category and risk. */
export const GET = route(async (req) => {
  const session = await requireSession(req);
  return json({ status: "success", items: await listTools(session) });
});
