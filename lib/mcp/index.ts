// The MCP server of the HITL core: the review queue's tools for external agents (see docs/mcp.md).
export { mcpActor } from "./auth";
export { createHitlMcpServer, HITL_TOOLS, handleMcpRequest, MCP_SERVER_NAME, methodNotAllowed } from "./server";
export type { HitlTool } from "./tool";
