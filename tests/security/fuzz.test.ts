import { readdirSync } from "node:fs";
import path from "node:path";
import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it } from "vitest";
import * as sessionRoute from "@/app/api/session/route";
import { createApiKey } from "@/lib/tenancy";
import { proxy } from "@/proxy";
import { appTargets } from "../support/databases";
import { call, cookieHeader } from "../support/http";
import { seededDatabase } from "../support/seeded";

// Every route handler under app/api, found on disk: a route added later is fuzzed without
// anyone listing it here.
const API_DIR = path.resolve(import.meta.dirname, "../../app/api");
const ROUTE_FILES = (readdirSync(API_DIR, { recursive: true }) as string[])
  .filter((file) => file.split(path.sep).at(-1) === "route.ts")
  .sort();
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
const WITH_BODY = new Set(["POST", "PUT", "PATCH", "DELETE"]);

type Handler = (req: Request, context: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

interface Endpoint {
  /** `/api/...` with its dynamic segments as written in the folder names. */
  pattern: string;
  method: (typeof METHODS)[number];
  handler: Handler;
  /** Dynamic segments: name and whether it is a catch-all. */
  params: { name: string; catchAll: boolean }[];
}

const NUL = "\u0000";
/** A UTF-16 high surrogate with no low one after it: no Unicode text, so nothing can store it. */
const LONE_SURROGATE = "\ud800";
/** Percent-encodings that decode to no UTF-8 text: a cut-off sequence, a stray byte, an encoded surrogate. */
const BAD_PERCENT = ["%E0%A4%A", "%FF", "%ED%A0%80", "%"];
const DEPTH = 10_000;
const deepArray = `${"[".repeat(DEPTH)}${"]".repeat(DEPTH)}`;
const deepObject = `${'{"a":'.repeat(DEPTH)}1${"}".repeat(DEPTH)}`;

// Query parameters the routes read; each gets a NUL on its own, so the other ones stay valid.
const QUERY_KEYS = [
  "q",
  "cursor",
  "limit",
  "status",
  "state",
  "all",
  "workflow",
  "after",
  "domain",
  "k",
  "adapter_id",
  "case_type",
  "priority",
  "since",
  "until",
  "outcome",
  "agent",
];

// Bodies a route accepts (or nearly): a NUL in one field at a time gets past the schema to
// whatever stores or searches it. Every other route gets the generic bodies below.
const VALID_BODIES: Record<string, unknown> = {
  "POST /api/chat": { agentId: "fda-regulatory", message: "What is a 510(k)?" },
  "PATCH /api/chat/sessions/[id]": { title: "A title" },
  "POST /api/runs": { workflow: "demo-echo", input: { message: "hello" } },
  "POST /api/runs/[id]/messages": { message: "Focus on the label" },
  "POST /api/runs/[id]/resume": { value: { approved: true }, requestId: "fuzz-resume" },
  "POST /api/hitl/cases": {
    request_id: "fuzz-submit",
    adapter_id: "lgv_troubleshooting",
    case_type: "troubleshooting",
    title: "LGV-07 stops at the dock entrance",
    payload: { vehicle_id: "LGV-07", symptom: "stops" },
    submitter: { name: "Erin Expert", role: "member" },
  },
  "POST /api/hitl/cases/[id]/decision": { request_id: "fuzz-decide", decision: "approved", notes: "ok" },
  "POST /api/hitl/cases/[id]/clarification-request": { request_id: "fuzz-ask", question: "Which dock?" },
  "POST /api/hitl/cases/[id]/clarification": { request_id: "fuzz-answer", response: "Dock 4" },
  "POST /api/hitl/cases/[id]/escalation": { request_id: "fuzz-escalate", reason: "Needs a lead" },
  "POST /api/hitl/adapters/[adapter]/versions": { schema: { type: "object" }, description: "v" },
  "PUT /api/hitl/sla-policies/[adapter]": { target_minutes: 60 },
  "PUT /api/principles": { principles: ["Cite sources"] },
  "POST /api/knowledge/documents": { format: "markdown", content: "# Title\n\nBody", domains: ["regulatory"] },
  "POST /api/api-keys": { name: "fuzz", role: "member" },
  "POST /api/session": { email: "expert@demo.local", password: "vigil-demo" },
  "POST /api/mcp": {
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "get_case", arguments: { case_id: "HITL-1" } },
  },
};

// Handlers that read no body: the body's content cannot matter to them.
const IGNORES_BODY = new Set(["DELETE /api/session"]);

// better-auth's own endpoints (README): they answer in better-auth's shape; they must not fail.
const OWN_SHAPE = /^\/api\/auth\//;

const GENERIC_BODY = {
  name: "fuzz",
  title: "fuzz",
  message: "fuzz",
  query: "fuzz",
  notes: "fuzz",
  reason: "fuzz",
  request_id: "fuzz",
  payload: { note: "fuzz" },
  input: { message: "fuzz" },
  value: "fuzz",
};

/** The value with `bad` in the string at `target` (a leaf index), and how many leaves it has. */
function withCharAt(value: unknown, target: number, bad: string): { value: unknown; leaves: number } {
  let index = 0;
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return index++ === target ? `${v.slice(0, 1)}${bad}${v.slice(1)}` : v;
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  const out = walk(value);
  return { value: out, leaves: index };
}

/**
 * One body per string in the value, each with `bad` in that string only; and one with it in a
 * key. JSON.stringify writes a lone surrogate as the escape `\ud800`, as a client would.
 */
function bodiesWith(value: unknown, bad: string): string[] {
  const bodies: string[] = [];
  for (let target = 0; ; target++) {
    const { value: out, leaves } = withCharAt(value, target, bad);
    if (target >= leaves) break;
    bodies.push(JSON.stringify(out));
  }
  if (value && typeof value === "object" && !Array.isArray(value)) {
    bodies.push(JSON.stringify({ ...value, [`key${bad}`]: "x" }));
  }
  return bodies;
}

/** The body as UTF-8 with the first string's text replaced by bytes that are no UTF-8 (an encoded surrogate). */
function invalidUtf8Body(value: unknown): Uint8Array | null {
  const { value: marked, leaves } = withCharAt(value, 0, "\u0001MARK\u0001");
  if (leaves === 0) return null;
  const [before, after] = JSON.stringify(marked).split("\\u0001MARK\\u0001");
  return Buffer.concat([Buffer.from(before), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from(after)]);
}

/** The same body with the deep document in each of its fields, and the deep document alone. */
function deepBodies(value: unknown): string[] {
  const bodies = [deepArray, deepObject];
  if (value && typeof value === "object" && !Array.isArray(value)) {
    for (const key of Object.keys(value)) {
      const text = JSON.stringify({ ...value, [key]: "__DEEP__" });
      bodies.push(text.replace('"__DEEP__"', deepObject));
    }
  }
  return bodies;
}

async function loadEndpoints(): Promise<Endpoint[]> {
  const endpoints: Endpoint[] = [];
  for (const file of ROUTE_FILES) {
    const module = (await import(path.join(API_DIR, file))) as Record<string, unknown>;
    const segments = path
      .dirname(file)
      .split(path.sep)
      .filter((s) => s !== ".");
    const params = segments
      .map((s) => /^\[(\.\.\.)?(\w+)\]$/.exec(s))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => ({ name: m[2], catchAll: Boolean(m[1]) }));
    for (const method of METHODS) {
      const handler = module[method];
      if (typeof handler !== "function") continue;
      endpoints.push({
        pattern: `/api/${segments.join("/")}`.replace(/\/$/, ""),
        method,
        handler: handler as Handler,
        params,
      });
    }
  }
  return endpoints;
}

/** A request path for the pattern with `values` filled in (percent-encoded as a browser sends it). */
function pathOf(endpoint: Endpoint, values: Record<string, string>): string {
  return endpoint.pattern.replace(/\[(?:\.\.\.)?(\w+)\]/g, (_, name: string) => encodeURIComponent(values[name]));
}

function paramsOf(endpoint: Endpoint, values: Record<string, string>): Record<string, string | string[]> {
  return Object.fromEntries(endpoint.params.map((p) => [p.name, p.catchAll ? [values[p.name]] : values[p.name]]));
}

// Path values that pass the routes' own checks (a UUID, a case id, an adapter name, a version),
// so a NUL elsewhere in the request is what reaches the handler's work.
const PLAIN_PARAMS: Record<string, string> = {
  id: "00000000-0000-4000-8000-000000000000",
  adapter: "lgv_troubleshooting",
  version: "1",
  tool: "calculator",
  name: "calculator",
  all: "get-session",
};

/** Sends one request and reads the answer; a stream is cancelled once its status is known. */
async function send(
  endpoint: Endpoint,
  init: {
    path: string;
    params: Record<string, string | string[]>;
    body?: string | Uint8Array;
    headers: Record<string, string>;
  },
): Promise<{ status: number; body: unknown; contentType: string }> {
  const headers = new Headers(init.headers);
  // What an MCP client accepts; the other routes answer JSON whatever it says.
  headers.set("accept", "application/json, text/event-stream");
  if (init.body !== undefined) headers.set("content-type", "application/json");
  const sent = typeof init.body === "string" || init.body === undefined ? init.body : new Uint8Array(init.body);
  const req = new Request(`http://localhost${init.path}`, { method: endpoint.method, headers, body: sent });
  const res = await endpoint.handler(req, { params: Promise.resolve(init.params) });
  const contentType = res.headers.get("content-type") ?? "";
  if (contentType.includes("text/event-stream")) {
    await res.body?.cancel();
    return { status: res.status, body: null, contentType };
  }
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: judged below
  }
  return { status: res.status, body, contentType };
}

type Carrier = "path" | "query" | "body";

/** What is wrong with an answer to bad input, or null when it is a documented refusal. */
function problemOf(res: { status: number; body: unknown }, endpoint: Endpoint, carrier: Carrier): string | null {
  const { status, body } = res;
  if (status >= 500) return `${status} ${JSON.stringify(body)}`;
  if (OWN_SHAPE.test(endpoint.pattern)) return null;
  if (status < 400) {
    const ignored = carrier === "body" && IGNORES_BODY.has(`${endpoint.method} ${endpoint.pattern}`);
    return ignored ? null : `${status}: bad input was accepted`;
  }
  const b = body as Record<string, unknown> | null;
  // The MCP endpoint answers a message it reads with a JSON-RPC error; before reading (no key,
  // another method) it refuses in the REST shape like every route.
  if (endpoint.pattern === "/api/mcp" && b?.jsonrpc === "2.0") {
    const error = b.error as { code?: unknown; message?: unknown } | undefined;
    return error && typeof error.code === "number" && typeof error.message === "string"
      ? null
      : `not a JSON-RPC error: ${JSON.stringify(body)}`;
  }
  if (b?.status === "not_found" && status === 404 && typeof b.message === "string") return null;
  if (
    b?.status === "error" &&
    typeof b.code === "string" &&
    /^[A-Z_]+$/.test(b.code) &&
    typeof b.message === "string"
  ) {
    return null;
  }
  return `${status} not in the error shape: ${JSON.stringify(body)}`;
}

for (const target of appTargets()) {
  describe(`every API route refuses NUL bytes, lone surrogates, bad percent-encoding and deep JSON on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });
    let endpoints: Endpoint[] = [];
    const principals: { label: string; headers: Record<string, string> }[] = [];

    beforeAll(async () => {
      endpoints = await loadEndpoints();
      const signIn = await call(sessionRoute.POST, {
        method: "POST",
        body: { email: "expert@demo.local", password: "vigil-demo" },
      });
      expect(signIn.status).toBe(200);
      // A browser's same-origin request: the cookie is not refused before the input is read.
      principals.push({
        label: "member (session)",
        headers: { cookie: cookieHeader(signIn), origin: "http://localhost", "sec-fetch-site": "same-origin" },
      });
      const admin = await createApiKey(
        { tenantId: suite.tenants.demo },
        { name: "fuzz", role: "admin", createdBy: "test" },
      );
      principals.push({ label: "admin (API key)", headers: { authorization: `Bearer ${admin.key}` } });
    });

    it("finds the route handlers on disk", () => {
      expect(ROUTE_FILES.length).toBeGreaterThan(40);
      expect(endpoints.length).toBeGreaterThanOrEqual(ROUTE_FILES.length);
    });

    it("answers a NUL in a path parameter with 400 in the error shape", async () => {
      const problems: string[] = [];
      for (const endpoint of endpoints.filter((e) => e.params.length > 0)) {
        for (const principal of principals) {
          for (const param of endpoint.params) {
            const values = { ...PLAIN_PARAMS, [param.name]: `x${NUL}y` };
            const res = await send(endpoint, {
              path: pathOf(endpoint, values),
              params: paramsOf(endpoint, values),
              body: WITH_BODY.has(endpoint.method) ? "{}" : undefined,
              headers: principal.headers,
            });
            const label = `${endpoint.method} ${endpoint.pattern} [${param.name}] as ${principal.label}`;
            const problem = problemOf(res, endpoint, "path");
            if (problem) problems.push(`${label}: ${problem}`);
          }
        }
      }
      expect(problems).toEqual([]);
    });

    it("answers a NUL in a query parameter with 400 in the error shape", async () => {
      const problems: string[] = [];
      for (const endpoint of endpoints.filter((e) => e.method === "GET")) {
        for (const principal of principals) {
          for (const key of QUERY_KEYS) {
            const res = await send(endpoint, {
              path: `${pathOf(endpoint, PLAIN_PARAMS)}?${key}=a%00b`,
              params: paramsOf(endpoint, PLAIN_PARAMS),
              headers: principal.headers,
            });
            const label = `${endpoint.method} ${endpoint.pattern}?${key} as ${principal.label}`;
            const problem = problemOf(res, endpoint, "query");
            if (problem) problems.push(`${label}: ${problem}`);
          }
        }
      }
      expect(problems).toEqual([]);
    });

    it("answers a NUL anywhere in a JSON body with a 4xx in the error shape", async () => {
      const problems: string[] = [];
      for (const endpoint of endpoints.filter((e) => WITH_BODY.has(e.method))) {
        const sample = VALID_BODIES[`${endpoint.method} ${endpoint.pattern}`] ?? GENERIC_BODY;
        for (const principal of principals) {
          for (const body of bodiesWith(sample, NUL)) {
            const res = await send(endpoint, {
              path: pathOf(endpoint, PLAIN_PARAMS),
              params: paramsOf(endpoint, PLAIN_PARAMS),
              body,
              headers: principal.headers,
            });
            const label = `${endpoint.method} ${endpoint.pattern} ${body.slice(0, 80)} as ${principal.label}`;
            const problem = problemOf(res, endpoint, "body");
            if (problem) problems.push(`${label}: ${problem}`);
          }
        }
      }
      expect(problems).toEqual([]);
    });

    it("answers an MCP message with a NUL or nested 10,000 deep with a JSON-RPC error", async () => {
      const mcp = endpoints.find((e) => e.pattern === "/api/mcp" && e.method === "POST");
      if (!mcp) throw new Error("no MCP route");
      const admin = principals[1];
      const call = (args: string) =>
        `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"get_case","arguments":${args}}}`;
      for (const body of [
        call('{"case_id":"HITL-\\u0000"}'),
        call(`{"case_id":"HITL-1","extra":${deepObject}}`),
        call(deepArray),
        `[${call('{"case_id":"HITL-1"}')},${deepArray}]`,
      ]) {
        const res = await send(mcp, { path: "/api/mcp", params: {}, body, headers: admin.headers });
        expect(res.status, body.slice(0, 120)).toBe(400);
        expect(res.body).toMatchObject({
          jsonrpc: "2.0",
          id: null,
          error: { code: -32600, message: expect.any(String), data: { status: "error", code: expect.any(String) } },
        });
      }
    });

    it("answers a lone surrogate anywhere in a JSON body with a 4xx in the error shape", async () => {
      const problems: string[] = [];
      for (const endpoint of endpoints.filter((e) => WITH_BODY.has(e.method))) {
        const sample = VALID_BODIES[`${endpoint.method} ${endpoint.pattern}`] ?? GENERIC_BODY;
        const bodies: (string | Uint8Array)[] = bodiesWith(sample, LONE_SURROGATE);
        const raw = invalidUtf8Body(sample);
        if (raw) bodies.push(raw);
        for (const principal of principals) {
          for (const body of bodies) {
            const res = await send(endpoint, {
              path: pathOf(endpoint, PLAIN_PARAMS),
              params: paramsOf(endpoint, PLAIN_PARAMS),
              body,
              headers: principal.headers,
            });
            const shown = typeof body === "string" ? body.slice(0, 80) : "(invalid UTF-8)";
            const label = `${endpoint.method} ${endpoint.pattern} ${shown} as ${principal.label}`;
            const problem = problemOf(res, endpoint, "body");
            if (problem) problems.push(`${label}: ${problem}`);
          }
        }
      }
      expect(problems).toEqual([]);
    });

    it("answers a lone surrogate or bad percent-encoding in a path parameter with 400 in the error shape", async () => {
      const problems: string[] = [];
      for (const endpoint of endpoints.filter((e) => e.params.length > 0)) {
        for (const principal of principals) {
          for (const param of endpoint.params) {
            // What Next.js hands a route for each: the decoded surrogate, or the raw text it could not decode.
            const cases = [
              { path: `x${LONE_SURROGATE}y`, encoded: "x%ED%A0%80y" },
              ...BAD_PERCENT.map((bad) => ({ path: `x${bad}`, encoded: `x${bad}` })),
            ];
            for (const { path: value, encoded } of cases) {
              const values = { ...PLAIN_PARAMS, [param.name]: value };
              const requestPath = endpoint.pattern.replace(/\[(?:\.\.\.)?(\w+)\]/g, (_, name: string) =>
                name === param.name ? encoded : encodeURIComponent(PLAIN_PARAMS[name]),
              );
              const res = await send(endpoint, {
                path: requestPath,
                params: paramsOf(endpoint, values),
                body: WITH_BODY.has(endpoint.method) ? "{}" : undefined,
                headers: principal.headers,
              });
              const label = `${endpoint.method} ${requestPath} as ${principal.label}`;
              const problem = problemOf(res, endpoint, "path");
              if (problem) problems.push(`${label}: ${problem}`);
            }
          }
        }
      }
      expect(problems).toEqual([]);
    });

    it("answers bad percent-encoding in a query parameter with 400 in the error shape", async () => {
      const problems: string[] = [];
      for (const endpoint of endpoints.filter((e) => e.method === "GET")) {
        for (const principal of principals) {
          for (const bad of BAD_PERCENT) {
            const res = await send(endpoint, {
              path: `${pathOf(endpoint, PLAIN_PARAMS)}?q=a${bad}`,
              params: paramsOf(endpoint, PLAIN_PARAMS),
              headers: principal.headers,
            });
            const label = `${endpoint.method} ${endpoint.pattern}?q=a${bad} as ${principal.label}`;
            const problem = problemOf(res, endpoint, "query");
            if (problem) problems.push(`${label}: ${problem}`);
          }
        }
      }
      expect(problems).toEqual([]);
    });

    it("answers bad percent-encoding anywhere in an /api path with 400 in the error shape before routing", async () => {
      const problems: string[] = [];
      // Next.js decodes a route's parameters before the handler runs, and a path it cannot decode
      // never reaches route(): the proxy in front of every /api request is where it is refused.
      const paths = new Set<string>();
      for (const endpoint of endpoints) {
        for (const bad of BAD_PERCENT) {
          paths.add(`${endpoint.pattern.replace(/\[(?:\.\.\.)?\w+\]/g, "x")}/${bad}`);
          for (const param of endpoint.params) {
            paths.add(
              endpoint.pattern.replace(/\[(?:\.\.\.)?(\w+)\]/g, (_, name: string) =>
                name === param.name ? `x${bad}` : encodeURIComponent(PLAIN_PARAMS[name]),
              ),
            );
          }
        }
      }
      for (const path of paths) {
        for (const method of ["GET", "POST"]) {
          const res = await proxy(new NextRequest(`http://localhost${path}`, { method }));
          const text = await res.text();
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // judged below
          }
          const b = body as Record<string, unknown> | null;
          const shaped = b?.status === "error" && b.code === "VALIDATION_FAILED" && typeof b.message === "string";
          if (res.status !== 400 || !shaped) problems.push(`${method} ${path}: ${res.status} ${text.slice(0, 120)}`);
        }
      }
      expect(paths.size).toBeGreaterThan(ROUTE_FILES.length);
      expect(problems).toEqual([]);
    });

    it("answers an MCP message with a lone surrogate or invalid UTF-8 with a JSON-RPC error", async () => {
      const mcp = endpoints.find((e) => e.pattern === "/api/mcp" && e.method === "POST");
      if (!mcp) throw new Error("no MCP route");
      const admin = principals[1];
      const submit = JSON.stringify({
        jsonrpc: "2.0",
        id: 8,
        method: "tools/call",
        params: {
          name: "submit_case",
          arguments: {
            request_id: "fuzz-mcp-surrogate",
            adapter_id: "lgv_troubleshooting",
            case_type: "troubleshooting",
            title: `LGV-07 ${LONE_SURROGATE} stops`,
            payload: { vehicle_id: "LGV-07", symptom: "stops" },
            submitter: { name: "Erin Expert", role: "member" },
          },
        },
      });
      const cases: { body: string | Uint8Array; code: number }[] = [
        { body: submit, code: -32600 },
        {
          body: '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"get_case","arguments":{"case_id":"HITL-\\ud800"}}}',
          code: -32600,
        },
        {
          body: '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"get_case","arguments":{"case_\\udc00id":"HITL-1"}}}',
          code: -32600,
        },
        {
          body: Buffer.from(submit.replace("\\ud800", "\u00e9"), "utf8").map((b) =>
            b === 0xc3 ? 0xed : b === 0xa9 ? 0xa0 : b,
          ),
          code: -32700,
        },
      ];
      for (const { body, code } of cases) {
        const res = await send(mcp, { path: "/api/mcp", params: {}, body, headers: admin.headers });
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({
          jsonrpc: "2.0",
          id: null,
          error: { code, message: expect.any(String), data: { status: "error", code: expect.any(String) } },
        });
      }
    });

    it("answers JSON nested 10,000 deep with a 4xx in the error shape", async () => {
      const problems: string[] = [];
      for (const endpoint of endpoints.filter((e) => WITH_BODY.has(e.method))) {
        const sample = VALID_BODIES[`${endpoint.method} ${endpoint.pattern}`] ?? GENERIC_BODY;
        for (const principal of principals) {
          for (const body of deepBodies(sample)) {
            const res = await send(endpoint, {
              path: pathOf(endpoint, PLAIN_PARAMS),
              params: paramsOf(endpoint, PLAIN_PARAMS),
              body,
              headers: principal.headers,
            });
            const label = `${endpoint.method} ${endpoint.pattern} nested ${body.slice(0, 40)} as ${principal.label}`;
            const problem = problemOf(res, endpoint, "body");
            if (problem) problems.push(`${label}: ${problem}`);
          }
        }
      }
      expect(problems).toEqual([]);
    });
  });
}
