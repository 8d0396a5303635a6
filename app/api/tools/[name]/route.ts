import { setTool, ToolSettings } from "@/lib/agents";
import { requireRole } from "@/lib/auth";
import { json, parseBody } from "@/lib/http";
import { route } from "@/lib/server";

/** An admin sets a tool's category, risk, scope, external flag or whether it is on, tenant-wide. */
export const PUT = route<{ params: Promise<{ name: string }> }>(async (req, { params }) => {
  const session = await requireRole(req, "admin");
  const body = await parseBody(req, ToolSettings, 4 * 1024);
  return json({ status: "success", tool: await setTool(session, session.userId, (await params).name, body) });
});
