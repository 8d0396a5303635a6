// Serves the MCP route (app/api/mcp) over node:http without a Next.js build, for MCP clients,
// inspectors and the conformance runner:
//
//   npx tsx scripts/mcp-serve.ts [--port 3333] [--tenant demo --role reviewer] [--inject-key]
//
// It uses the configured database (DATABASE_URL, else the embedded one; VIGIL_DATA_DIR=memory://
// for a throw-away one), registers the built-in adapters for the tenant and prints a fresh API key.
// --inject-key adds that key to requests that carry no Authorization header: only for tools that
// cannot send headers (the conformance runner). It needs a loopback --host, and on a loopback host
// requests whose Host or Origin is not a loopback name are refused (DNS rebinding).
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { parseArgs } from "node:util";
import * as mcpRoute from "@/app/api/mcp/route";
import { ROLES, type Role } from "@/lib/access";
import { registerDefaultAdapters } from "@/lib/hitl";
import { boot } from "@/lib/server";
import { createApiKey, tenantBySlug } from "@/lib/tenancy";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "3333" },
    host: { type: "string", default: "127.0.0.1" },
    tenant: { type: "string", default: "demo" },
    role: { type: "string", default: "reviewer" },
    "inject-key": { type: "boolean", default: false },
  },
});

type Handler = (req: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
const HANDLERS: Record<string, Handler> = { POST: mcpRoute.POST, GET: mcpRoute.GET, DELETE: mcpRoute.DELETE };
const PATH = "/api/mcp";
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/** A Host or Origin that names this machine (absent counts: programs send no Origin). */
function isLoopback(value: string | undefined, scheme: "host" | "origin"): boolean {
  if (value === undefined) return scheme === "origin";
  try {
    return LOOPBACK.has(new URL(scheme === "host" ? `http://${value}` : value).hostname);
  } catch {
    return false;
  }
}

function toRequest(req: IncomingMessage, origin: string, injectedKey: string | null): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  if (injectedKey && !headers.has("authorization")) headers.set("authorization", `Bearer ${injectedKey}`);
  const method = req.method ?? "GET";
  const body = method === "GET" || method === "HEAD" ? undefined : (Readable.toWeb(req) as ReadableStream<Uint8Array>);
  return new Request(new URL(req.url ?? "/", origin), { method, headers, body, duplex: "half" } as RequestInit);
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => {
    res.setHeader(name, value);
  });
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    res.write(value);
  }
  res.end();
}

async function main(): Promise<void> {
  if (!ROLES.includes(values.role as Role)) throw new Error(`--role must be one of ${ROLES.join(", ")}.`);
  const loopbackOnly = LOOPBACK.has(values.host);
  if (values["inject-key"] && !loopbackOnly) throw new Error("--inject-key needs a loopback --host.");
  const database = await boot();
  const tenant = await tenantBySlug(values.tenant);
  if (!tenant) throw new Error(`No tenant with slug "${values.tenant}" (is the database seeded?).`);
  await registerDefaultAdapters(tenant);
  const key = await createApiKey(tenant, {
    name: `${values.role} key (mcp-serve)`,
    role: values.role as Role,
    createdBy: "cli",
  });
  const injectedKey = values["inject-key"] ? key.key : null;

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (loopbackOnly && !(isLoopback(req.headers.host, "host") && isLoopback(req.headers.origin, "origin"))) {
      res.writeHead(403, { "content-type": "application/json" });
      res.end(JSON.stringify({ status: "error", code: "HOST_FORBIDDEN", message: "Only loopback hosts are served." }));
      return;
    }
    const handler = url.pathname === PATH ? HANDLERS[req.method ?? ""] : undefined;
    if (!handler) {
      res.writeHead(url.pathname === PATH ? 405 : 404, { "content-type": "application/json" });
      res.end(JSON.stringify({ status: "not_found", message: `Only ${PATH} is served here.` }));
      return;
    }
    const origin = `http://${req.headers.host ?? "localhost"}`;
    handler(toRequest(req, origin, injectedKey), { params: Promise.resolve({}) })
      .then((response) => send(res, response))
      .catch((error) => {
        console.error("[mcp-serve] request failed", error);
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
  });
  server.listen(Number(values.port), values.host, () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : values.port;
    console.log(`MCP endpoint: http://${values.host}:${port}${PATH}`);
    console.log(`API key (${key.role}, ${tenant.tenantName}): ${key.key}`);
    if (injectedKey) console.log("Requests without an Authorization header act with this key (--inject-key).");
  });
  const stop = async () => {
    server.close();
    await database.close();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch(async (error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
