import { readdirSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as keysRoute from "@/app/api/api-keys/route";
import * as chatSessionRoute from "@/app/api/chat/sessions/[id]/route";
import * as decisionRoute from "@/app/api/hitl/cases/[id]/decision/route";
import * as casesRoute from "@/app/api/hitl/cases/route";
import * as documentsRoute from "@/app/api/knowledge/documents/route";
import * as sessionRoute from "@/app/api/session/route";
import * as tenantRoute from "@/app/api/session/tenant/route";
import { rowsOf } from "@/lib/db";
import { caseBody, hitlSnapshot, rid } from "../api-hitl/support";
import { connectClient } from "../mcp/support";
import { appTargets } from "../support/databases";
import { type Call, call, cookieHeader } from "../support/http";
import { seededDatabase } from "../support/seeded";

const MUTATING = ["POST", "PUT", "PATCH", "DELETE"] as const;
const API_DIR = path.resolve(import.meta.dirname, "../../app/api");
const FOREIGN = "https://evil.example";
const OWN = "http://localhost";

/** Every mutating handler under app/api, found on disk so that a new route cannot be missed. */
function mutatingRoutes(): { file: string; method: (typeof MUTATING)[number]; path: string }[] {
  const files = (readdirSync(API_DIR, { recursive: true }) as string[]).filter((f) => f.endsWith("route.ts")).sort();
  const found: { file: string; method: (typeof MUTATING)[number]; path: string }[] = [];
  for (const file of files) {
    const urlPath = `/api/${path.dirname(file)}`.replace(/\[\.\.\.[^\]]+\]/g, "x").replace(/\[[^\]]+\]/g, "x");
    for (const method of MUTATING) found.push({ file, method, path: urlPath });
  }
  return found;
}

type Handler = (req: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

async function handlerOf(file: string, method: string): Promise<Handler | undefined> {
  const mod = (await import(path.join(API_DIR, file))) as Record<string, Handler | undefined>;
  return mod[method];
}

const CSRF_REJECTED = { status: "error", code: "CSRF_REJECTED", message: expect.any(String) };

for (const target of appTargets()) {
  describe(`cross-site request forgery on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });
    const cookies: Record<string, string> = {};

    beforeAll(async () => {
      for (const email of ["admin@demo.local", "reviewer@demo.local", "expert@demo.local"]) {
        const res = await call(sessionRoute.POST, {
          method: "POST",
          body: { email, password: "vigil-demo" },
          headers: { origin: OWN },
        });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        cookies[email] = cookieHeader(res);
      }
    });

    async function count(table: string): Promise<number> {
      return rowsOf<{ n: number }>(
        await suite.database.db.execute(sql`select count(*)::int as n from ${sql.identifier(table)}`),
      )[0].n;
    }

    const routes = mutatingRoutes();

    it("finds the mutating routes", async () => {
      const present = [];
      for (const r of routes) if (await handlerOf(r.file, r.method)) present.push(`${r.method} ${r.path}`);
      // A sample that must be among them; the table below covers every one found.
      expect(present).toEqual(
        expect.arrayContaining([
          "POST /api/api-keys",
          "POST /api/hitl/cases/x/decision",
          "POST /api/knowledge/documents",
          "POST /api/chat",
          "PUT /api/principles",
          "POST /api/session",
          "POST /api/mcp",
        ]),
      );
      expect(present.length).toBeGreaterThan(25);
    });

    it("refuses a cookie-carrying mutation from another site on every route, before it runs", async () => {
      const attempts: [string, Record<string, string>][] = [
        ["a foreign Origin", { origin: FOREIGN }],
        ['an Origin of "null"', { origin: "null" }],
        ["a foreign Origin on the same host name, another port", { origin: "http://localhost:4444" }],
        ["Sec-Fetch-Site cross-site, no Origin", { "sec-fetch-site": "cross-site" }],
        ["Sec-Fetch-Site same-site, no Origin", { "sec-fetch-site": "same-site" }],
      ];
      const bodies: [string, BodyInit | undefined, string | undefined][] = [
        ["JSON", JSON.stringify({ name: "x", role: "admin" }), "application/json"],
        ["text/plain;charset=json", JSON.stringify({ name: "x", role: "admin" }), "text/plain;charset=json"],
        ["no body", undefined, undefined],
      ];
      const keysBefore = await count("api_keys");
      const wrong: string[] = [];
      for (const r of routes) {
        const handler = await handlerOf(r.file, r.method);
        if (!handler) continue;
        for (const [label, headers] of attempts) {
          for (const [bodyLabel, rawBody, type] of bodies) {
            const res = await call(handler, {
              method: r.method,
              path: r.path,
              rawBody,
              headers: { cookie: cookies["admin@demo.local"], "content-type": type, ...headers },
              params: { id: "x", adapter: "x", version: "1", tool: "x", name: "x", all: "x" },
            });
            if (!isCsrfRejection(res)) {
              wrong.push(
                `${r.method} ${r.path} with ${label}, ${bodyLabel}: ${res.status} ${JSON.stringify(res.body)}`,
              );
            }
          }
        }
      }
      expect(wrong).toEqual([]);
      expect(await count("api_keys")).toBe(keysBefore);
    });

    it("refuses, from this origin too, bodies other than JSON and multipart on every route", async () => {
      const simple: [string, BodyInit, string | undefined][] = [
        ["text/plain;charset=json", "{}", "text/plain;charset=json"],
        ["application/x-www-form-urlencoded;json", "{}", "application/x-www-form-urlencoded;json"],
        ["text/plain", "{}", "text/plain"],
        ["no content type", new Uint8Array([123, 125]), undefined],
      ];
      const wrong: string[] = [];
      for (const r of routes) {
        const handler = await handlerOf(r.file, r.method);
        if (!handler) continue;
        for (const [label, rawBody, type] of simple) {
          const res = await call(handler, {
            method: r.method,
            path: r.path,
            rawBody,
            // As a browser sends them: every body with its length.
            headers: { cookie: cookies["admin@demo.local"], origin: OWN, "content-type": type, "content-length": "2" },
            params: { id: "x", adapter: "x", version: "1", tool: "x", name: "x", all: "x" },
          });
          if (res.status !== 415 || res.body.code !== "UNSUPPORTED_MEDIA_TYPE") {
            wrong.push(`${r.method} ${r.path} with ${label}: ${res.status} ${JSON.stringify(res.body)}`);
          }
        }
      }
      expect(wrong).toEqual([]);
    });

    it("no longer lets another site create an admin API key or decide a case", async () => {
      const keysBefore = await count("api_keys");
      for (const type of ["text/plain;charset=json", "application/x-www-form-urlencoded;json", "application/json"]) {
        const res = await call(keysRoute.POST, {
          method: "POST",
          path: "/api/api-keys",
          rawBody: JSON.stringify({ name: "planted", role: "admin" }),
          headers: { cookie: cookies["admin@demo.local"], origin: FOREIGN, "content-type": type },
        });
        expect([res.status, res.body]).toEqual([403, CSRF_REJECTED]);
      }
      expect(await count("api_keys")).toBe(keysBefore);

      const submitted = await call(casesRoute.POST, {
        method: "POST",
        path: "/api/hitl/cases",
        body: caseBody(),
        headers: { cookie: cookies["expert@demo.local"], origin: OWN },
      });
      expect(submitted.status, JSON.stringify(submitted.body)).toBe(201);
      const id = submitted.body.caseId as string;
      const before = await hitlSnapshot(suite.database);
      const decided = await call(decisionRoute.POST, {
        method: "POST",
        path: `/api/hitl/cases/${id}/decision`,
        rawBody: JSON.stringify({ request_id: rid(), decision: "approved", notes: "planted" }),
        headers: { cookie: cookies["reviewer@demo.local"], origin: FOREIGN, "content-type": "text/plain;charset=json" },
        params: { id },
      });
      expect([decided.status, decided.body]).toEqual([403, CSRF_REJECTED]);
      expect(await hitlSnapshot(suite.database)).toEqual(before);
    });

    it("refuses a multipart upload posted by another site's form", async () => {
      const data = new FormData();
      data.append("file", new File(["# Planted\n\nText."], "planted.md", { type: "text/markdown" }));
      data.append("domains", "quality");
      const before = await count("knowledge_documents");
      const res = await call(documentsRoute.POST, {
        method: "POST",
        path: "/api/knowledge/documents",
        rawBody: data,
        headers: { cookie: cookies["admin@demo.local"], origin: FOREIGN },
      });
      expect([res.status, res.body]).toEqual([403, CSRF_REJECTED]);
      expect(await count("knowledge_documents")).toBe(before);
    });

    it("still accepts this origin's JSON and multipart, and programs that send no Origin", async () => {
      const tenants = await call(sessionRoute.GET, { headers: { cookie: cookies["admin@demo.local"] } });
      const tenantId = (tenants.body.session as { tenantId: string }).tenantId;
      for (const headers of [{ origin: OWN }, { "sec-fetch-site": "same-origin" }, {}]) {
        const res = await call(tenantRoute.POST, {
          method: "POST",
          path: "/api/session/tenant",
          body: { tenantId },
          headers: { cookie: cookies["admin@demo.local"], ...headers },
        });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      }
      // A bodiless DELETE or POST from fetch carries no Content-Type (and a DELETE no length).
      const bodiless = await call(chatSessionRoute.DELETE, {
        method: "DELETE",
        path: "/api/chat/sessions/00000000-0000-4000-8000-000000000000",
        headers: { cookie: cookies["admin@demo.local"], origin: OWN },
        params: { id: "00000000-0000-4000-8000-000000000000" },
      });
      expect(bodiless.status, JSON.stringify(bodiless.body)).toBe(404);
      const charset = await call(tenantRoute.POST, {
        method: "POST",
        path: "/api/session/tenant",
        rawBody: JSON.stringify({ tenantId }),
        headers: {
          cookie: cookies["admin@demo.local"],
          origin: OWN,
          "content-type": "application/json; charset=utf-8",
        },
      });
      expect(charset.status).toBe(200);
      const data = new FormData();
      data.append("file", new File(["# Own upload\n\nA line of text."], "own.md", { type: "text/markdown" }));
      data.append("domains", "quality");
      const upload = await call(documentsRoute.POST, {
        method: "POST",
        path: "/api/knowledge/documents",
        rawBody: data,
        headers: { cookie: cookies["admin@demo.local"], origin: OWN },
      });
      expect(upload.status, JSON.stringify(upload.body)).toBe(201);
    });

    it("exempts API-key requests, which carry no ambient credential, and keeps MCP working", async () => {
      const created = await call(keysRoute.POST, {
        method: "POST",
        path: "/api/api-keys",
        body: { name: "csrf-test", role: "reviewer" },
        headers: { cookie: cookies["admin@demo.local"], origin: OWN },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const key = (created.body.key as { key: string }).key;
      const viaKey = await call(casesRoute.POST, {
        method: "POST",
        path: "/api/hitl/cases",
        body: caseBody(),
        headers: { authorization: `Bearer ${key}`, origin: FOREIGN, "sec-fetch-site": "cross-site" },
      });
      expect(viaKey.status, JSON.stringify(viaKey.body)).toBe(201);
      const client = await connectClient(key);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain("submit_case");
      await client.close();
    });

    it("never lets a bearer header carry a cookie past the check", async () => {
      for (const authorization of ["Bearer not-a-key", "Bearer vk_not_a_real_key_at_all_123456"]) {
        const res = await call(keysRoute.POST, {
          method: "POST",
          path: "/api/api-keys",
          body: { name: "planted", role: "admin" },
          headers: { cookie: cookies["admin@demo.local"], authorization, origin: FOREIGN },
        });
        expect([res.status, res.body.code]).toEqual([401, "UNAUTHENTICATED"]);
      }
    });
  });
}

/** 403 CSRF_REJECTED in the error shape, and nothing else in the body. */
function isCsrfRejection(res: Call): boolean {
  return (
    res.status === 403 &&
    res.body.status === "error" &&
    res.body.code === "CSRF_REJECTED" &&
    typeof res.body.message === "string" &&
    Object.keys(res.body).length === 3
  );
}
