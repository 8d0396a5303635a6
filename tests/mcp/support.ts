import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { expect } from "vitest";
import * as mcpRoute from "@/app/api/mcp/route";
import { lgvPayload, rid } from "../hitl/support";

export const MCP_URL = "http://localhost/api/mcp";

type Handler = (req: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
const HANDLERS: Record<string, Handler> = { POST: mcpRoute.POST, GET: mcpRoute.GET, DELETE: mcpRoute.DELETE };

/** A fetch that hands the request to the route handler, the way Next.js would: no network. */
export const routeFetch: FetchLike = async (url, init) => {
  const request = new Request(url, init);
  const handler = HANDLERS[request.method];
  if (!handler) return new Response(null, { status: 405 });
  return handler(request, { params: Promise.resolve({}) });
};

/** The SDK's own client, speaking Streamable HTTP to the route with an API key. */
export async function connectClient(apiKey: string): Promise<Client> {
  const client = new Client({ name: "vigil-mcp-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(MCP_URL), {
    fetch: routeFetch,
    requestInit: { headers: { authorization: `Bearer ${apiKey}` } },
  });
  await client.connect(transport);
  return client;
}

export interface ToolAnswer {
  isError: boolean;
  body: Record<string, unknown>;
}

/**
 * Calls a tool and reads its answer: the JSON text content, which must be exactly the
 * structuredContent (both carry the design's snake_case record, or the API's error shape).
 */
export async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.content).toHaveLength(1);
  const [content] = result.content;
  if (content.type !== "text") throw new Error(`expected text content, got ${content.type}`);
  const body = JSON.parse(content.text) as Record<string, unknown>;
  expect(result.structuredContent).toEqual(body);
  return { isError: result.isError === true, body };
}

/** A raw JSON-RPC POST to the route, for what the client hides (HTTP status, headers, body). */
export async function postRaw(headers: Record<string, string>, message: unknown = ping()): Promise<Response> {
  return routeFetch(MCP_URL, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(message),
  });
}

export const ping = (id = 1) => ({ jsonrpc: "2.0", id, method: "ping" });

/**
 * The display fields of who acts (the design's `actor` and `submitter`): name, role, team.
 * The recorded actor_id is always the API key's principal, never one of these.
 */
export const DISPLAY = {
  member: { name: "Erin Expert", role: "LGV support engineer", team: "LGV support" },
  reviewer: { name: "Riley Reviewer", role: "Fleet reviewer", team: "Operations" },
  admin: { name: "Avery Admin", role: "Queue administrator", team: "Operations" },
} as const;

/** submit_case arguments for an lgv_troubleshooting case, with every argument the design requires. */
export function lgvSubmission(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    adapter_id: "lgv_troubleshooting",
    case_type: "incident",
    title: "LGV-07 stops at the dock entrance",
    payload: lgvPayload(),
    submitter: { ...DISPLAY.member, kind: "agent" },
    request_id: rid("submit"),
    ...overrides,
  };
}

/** record_decision / supersede_decision arguments: decision, notes and actor as the design requires them. */
export function decisionArgs(
  caseId: string,
  decision: "approved" | "rejected",
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return { case_id: caseId, decision, notes: "", actor: DISPLAY.reviewer, request_id: rid("decide"), ...overrides };
}
