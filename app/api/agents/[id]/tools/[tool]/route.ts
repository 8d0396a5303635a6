import { z } from "zod";
import { setAgentTool } from "@/lib/agents";
import { requireRole } from "@/lib/auth";
import { json, parseBody } from "@/lib/http";
import { route } from "@/lib/server";

const AgentToolSetting = z.object({ enabled: z.boolean() }).strict();

/** An admin enables or disables one tool for one agent. */
export const PUT = route<{ params: Promise<{ id: string; tool: string }> }>(async (req, { params }) => {
  const session = await requireRole(req, "admin");
  const { id, tool } = await params;
  const body = await parseBody(req, AgentToolSetting, 1024);
  return json({ status: "success", tool: await setAgentTool(session, session.userId, id, tool, body.enabled) });
});
