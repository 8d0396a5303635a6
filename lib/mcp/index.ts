// The MCP server of the HITL core: the review queue's tools for external agents (see docs/mcp.md).
import "server-only";

export { mcpActor } from "./auth";
export { handleMcpRequest, methodNotAllowed } from "./server";
