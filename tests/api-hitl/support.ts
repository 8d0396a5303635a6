import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { expect } from "vitest";
import * as sessionRoute from "@/app/api/session/route";
import { rowsOf } from "@/lib/db";
import { lgvPayload } from "../hitl/support";
import type { TestDatabase } from "../support/databases";
import { type Call, call, cookieHeader } from "../support/http";

export { lgvPayload };

export const PASSWORD = "vigil-demo";

export const MEMBER = "expert@demo.local";
export const REVIEWER = "reviewer@demo.local";
export const ADMIN = "admin@demo.local";
export const ACME_MEMBER = "expert@acme.local";
export const ACME_ADMIN = "admin@acme.local";

export const rid = (label = "req") => `${label}-${randomUUID()}`;

/** The submitter display fields the tests send (the principal is the session's user). */
export const SUBMITTER = { name: "Erin Expert", role: "member" } as const;

/**
 * A complete POST /api/hitl/cases body as the design names it: an lgv_troubleshooting case by
 * default, with `overrides` on top (pass a field as undefined to leave it out).
 */
export function caseBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const body: Record<string, unknown> = {
    request_id: rid("submit"),
    adapter_id: "lgv_troubleshooting",
    case_type: "troubleshooting",
    title: "LGV-07 stops at the dock entrance",
    payload: lgvPayload(),
    submitter: SUBMITTER,
    ...overrides,
  };
  for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
  return body;
}

type Params = Record<string, string>;

/** A signed-in caller of the HITL route handlers: sessions are opened once per email. */
export function hitlClient() {
  const cookies = new Map<string, string>();

  async function cookieOf(email: string): Promise<string> {
    const known = cookies.get(email);
    if (known) return known;
    const res = await call(sessionRoute.POST, { method: "POST", body: { email, password: PASSWORD } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const cookie = cookieHeader(res);
    cookies.set(email, cookie);
    return cookie;
  }

  return {
    async get(email: string, handler: unknown, path: string, params?: Params): Promise<Call> {
      return call(handler, { path, params, headers: { cookie: await cookieOf(email) } });
    },
    async post(email: string, handler: unknown, path: string, body: unknown, params?: Params): Promise<Call> {
      return call(handler, { method: "POST", path, params, body, headers: { cookie: await cookieOf(email) } });
    },
    async put(email: string, handler: unknown, path: string, body: unknown, params?: Params): Promise<Call> {
      return call(handler, { method: "PUT", path, params, body, headers: { cookie: await cookieOf(email) } });
    },
    async raw(
      email: string,
      handler: unknown,
      init: { method: string; path: string; rawBody: BodyInit; headers?: Record<string, string>; params?: Params },
    ): Promise<Call> {
      return call(handler, {
        ...init,
        headers: { "content-type": "application/json", ...init.headers, cookie: await cookieOf(email) },
      });
    },
    cookieOf,
  };
}

export type HitlClient = ReturnType<typeof hitlClient>;

/** Rows in a HITL table, counted as the owner (across tenants). */
export async function countRows(database: TestDatabase, table: string): Promise<number> {
  return rowsOf<{ n: number }>(
    await database.db.execute(sql`select count(*)::int as n from ${sql.identifier(table)}`),
  )[0].n;
}

/** What a refusal must have left untouched: every HITL table's row count and a hash of the projection. */
export async function hitlSnapshot(database: TestDatabase) {
  const tables = [
    "hitl_cases",
    "hitl_events",
    "hitl_state",
    "hitl_case_refs",
    "hitl_schema_registry",
    "hitl_sla_policies",
  ];
  const counts: Record<string, number> = {};
  for (const table of tables) counts[table] = await countRows(database, table);
  const [state] = rowsOf<{ digest: string | null }>(
    await database.db.execute(sql`select md5(string_agg(t::text, '|' order by t.case_id)) as digest from hitl_state t`),
  );
  return { counts, state: state.digest };
}
