import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";
import { IDEMPOTENCY_META_KEY } from "@/lib/runs";

// A real MCP server (the SDK's, over Streamable HTTP on a local port) with one tool that has a
// side effect, `record_effect`, done once per idempotency key as a payment API would: a call
// whose `_meta` carries a key already seen gets the first call's receipt and changes nothing.

export interface EffectServer {
  url: string;
  /** Every call received, in order, with the key its `_meta` carried (null: none). */
  calls: { key: string | null }[];
  /** The side effects actually performed, one receipt each. */
  effects: { key: string | null; receipt: string }[];
  close(): Promise<void>;
}

export async function startEffectServer(): Promise<EffectServer> {
  const calls: EffectServer["calls"] = [];
  const effects: EffectServer["effects"] = [];
  const byKey = new Map<string, string>();

  const mcpServer = () => {
    const server = new McpServer({ name: "effect-test-server", version: "1.0.0" });
    server.registerTool(
      "record_effect",
      {
        description: "Performs a side effect once per idempotency key and returns its receipt.",
        inputSchema: { note: z.string() },
        outputSchema: { receipt: z.string(), repeated: z.boolean() },
      },
      async (_args, extra) => {
        const raw = extra._meta?.[IDEMPOTENCY_META_KEY];
        const key = typeof raw === "string" ? raw : null;
        calls.push({ key });
        const known = key === null ? undefined : byKey.get(key);
        const receipt = known ?? `receipt-${effects.length + 1}`;
        if (!known) {
          effects.push({ key, receipt });
          if (key !== null) byKey.set(key, receipt);
        }
        const body = { receipt, repeated: known !== undefined };
        return { content: [{ type: "text", text: JSON.stringify(body) }], structuredContent: body };
      },
    );
    return server;
  };

  // Stateless: a server and transport per request, as the SDK's stateless example does.
  const http: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : undefined;
    const server = mcpServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    calls,
    effects,
    close: () => new Promise((resolve) => http.close(() => resolve())),
  };
}
