import { handleMcpRequest, mcpActor, methodNotAllowed } from "@/lib/mcp";
import { route } from "@/lib/server";

export const dynamic = "force-dynamic";

/** The HITL tools over MCP (Streamable HTTP, stateless), for API keys only: see docs/mcp.md. */
export const POST = route(async (req) => handleMcpRequest(req, await mcpActor(req)));

export const GET = route(async () => methodNotAllowed());
export const DELETE = route(async () => methodNotAllowed());
