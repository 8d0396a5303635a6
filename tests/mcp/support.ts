import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { expect } from "vitest";
import * as mcpRoute from "@/app/api/mcp/route";

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
 * structuredContent (both carry the REST body).
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
