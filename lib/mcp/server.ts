import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { z } from "zod";
import { DomainError } from "@/lib/errors";
import type { HitlActor } from "@/lib/hitl";
import { DEFAULT_BODY_LIMIT, errorResponse, json, parseBody } from "@/lib/http";
import packageJson from "@/package.json";
import { activateAdapterSchemaTool, registerAdapterSchemaTool } from "./adapter-tools";
import {
  getCaseHistoryTool,
  getCaseTool,
  provideClarificationTool,
  recordDecisionTool,
  requestClarificationTool,
  submitCaseTool,
  supersedeDecisionTool,
} from "./case-tools";
import { listCasesTool, listReviewQueueTool } from "./list-tools";
import { type HitlTool, registerTools } from "./tool";

export const MCP_SERVER_NAME = "vigil-hitl";

/** Every tool the server offers, in the order `tools/list` shows them. */
export const HITL_TOOLS: readonly HitlTool[] = [
  submitCaseTool,
  getCaseTool,
  listCasesTool,
  listReviewQueueTool,
  requestClarificationTool,
  provideClarificationTool,
  recordDecisionTool,
  supersedeDecisionTool,
  getCaseHistoryTool,
  registerAdapterSchemaTool,
  activateAdapterSchemaTool,
];

const INSTRUCTIONS =
  "Vigil's human-in-the-loop review queue. Submit a case with submit_case when an action needs a human " +
  "decision, then poll get_case until case.state.current_state is approved or rejected; answer a reviewer's " +
  "question (current_state needs_clarification, case.state.open_question) with provide_clarification. Records " +
  "use the HITL design's names (case_id, adapter_id, event_type, decision_outcome, …). Every mutation takes a " +
  "request_id: retry with the same one, never a new one, after a timeout. Results are JSON; failures have " +
  'isError set and {"status":"error","code":…} or {"status":"not_found",…}.';

/** An MCP server whose tools act as `actor` (one server per request: the transport is stateless). */
export function createHitlMcpServer(actor: HitlActor): McpServer {
  const server = new McpServer(
    { name: MCP_SERVER_NAME, title: "Vigil review queue", version: packageJson.version },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  registerTools(server, actor, HITL_TOOLS);
  return server;
}

/**
 * Answers one Streamable HTTP request (a JSON-RPC message or batch) for an authenticated actor.
 * Stateless: no session id, a fresh server and transport per request, JSON responses (nothing
 * here streams), so any instance can serve any request.
 */
export async function handleMcpRequest(request: Request, actor: HitlActor): Promise<Response> {
  let parsedBody: unknown;
  try {
    // The REST API's reader: size limit, read deadline, no NUL characters, bounded nesting.
    parsedBody = await parseBody(request, z.unknown(), DEFAULT_BODY_LIMIT);
  } catch (error) {
    if (error instanceof DomainError) return jsonRpcRefusal(error);
    throw error;
  }
  const server = createHitlMcpServer(actor);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: DEFAULT_BODY_LIMIT,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, { parsedBody });
  } finally {
    await server.close();
  }
}

/**
 * A request the transport never sees, refused as JSON-RPC does (-32700 for unparsable JSON,
 * -32600 otherwise) with the REST error shape as the error's data and the REST status.
 */
async function jsonRpcRefusal(error: DomainError): Promise<Response> {
  const rest = errorResponse(error);
  const data = await rest.json();
  const code = error.code === "INVALID_JSON" ? -32700 : -32600;
  return json({ jsonrpc: "2.0", error: { code, message: error.message, data }, id: null }, { status: rest.status });
}

/**
 * GET (a standalone SSE stream) and DELETE (ending a session) mean nothing to a stateless server;
 * the Streamable HTTP spec has it answer 405, which MCP clients expect and carry on after.
 */
export function methodNotAllowed(): Response {
  return json(
    {
      status: "error",
      code: "METHOD_NOT_ALLOWED",
      message: "This MCP endpoint is stateless: send JSON-RPC messages with POST.",
    },
    { status: 405, headers: { allow: "POST" } },
  );
}
