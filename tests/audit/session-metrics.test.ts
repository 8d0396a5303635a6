import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as runsRoute from "@/app/api/audit/runs/route";
import * as sessionsRoute from "@/app/api/audit/sessions/route";
import type { AuditRunItem, AuditSessionItem } from "@/lib/audit/contract";
import { rowsOf, schema } from "@/lib/db";
import { drainTrace, recordTrace, type TraceEvent } from "@/lib/trace";
import { ACME_ADMIN, ADMIN, hitlClient, MEMBER, REVIEWER } from "../api-hitl/support";
import { appTargets } from "../support/databases";
import { seededDatabase, userIdOf } from "../support/seeded";

// Fixture sessions end in 2018, before anything the seed creates, so a date range picks them.
const YEAR = "from=2018-01-01&to=2018-12-31";
const SESSIONS = 7;
/** More than the sequencer's batch (500), recorded in several commits and drained twice. */
const EVENTS = 1_300;
const TYPES: TraceEvent["eventType"][] = ["llm_call", "tool_result", "node_start", "cache_hit", "node_complete"];

interface Aggregate {
  session_id: string;
  event_count: number;
  llm_calls: number;
  total_tokens: number;
  total_cost: number;
  phi_access_count: number;
  cache_hits: number;
  error_count: number;
  session_start: number;
  session_end: number;
}

interface TraceRow {
  tenant_id: string;
  session_id: string;
  event_type: string;
  tokens_used: number | null;
  cost_usd: string | number | null;
  phi_accessed: boolean;
  cache_hit: boolean | null;
  event_success: boolean;
  event_timestamp: Date | string;
}

/** What session_metrics should hold for the rows given, summed here without SQL. */
function aggregate(rows: TraceRow[]): Map<string, Aggregate> {
  const out = new Map<string, Aggregate>();
  for (const r of rows) {
    const at = new Date(r.event_timestamp).getTime();
    const key = `${r.tenant_id}/${r.session_id}`;
    const a = out.get(key) ?? {
      session_id: r.session_id,
      event_count: 0,
      llm_calls: 0,
      total_tokens: 0,
      total_cost: 0,
      phi_access_count: 0,
      cache_hits: 0,
      error_count: 0,
      session_start: at,
      session_end: at,
    };
    a.event_count += 1;
    if (r.event_type === "llm_call") a.llm_calls += 1;
    a.total_tokens += r.tokens_used ?? 0;
    a.total_cost += Number(r.cost_usd ?? 0);
    if (r.phi_accessed) a.phi_access_count += 1;
    if (r.cache_hit) a.cache_hits += 1;
    if (!r.event_success) a.error_count += 1;
    a.session_start = Math.min(a.session_start, at);
    a.session_end = Math.max(a.session_end, at);
    out.set(key, a);
  }
  return out;
}

for (const target of appTargets()) {
  describe(`session metrics on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });
    const client = hitlClient();
    const runIds = { first: randomUUID(), second: randomUUID() };
    let fixtureEvents: TraceEvent[] = [];

    let made: Promise<void> | undefined;
    const fixture = () => {
      made ??= makeFixture();
      return made;
    };

    async function makeFixture() {
      const demo = suite.tenants.demo;
      const memberId = await userIdOf(suite.database, MEMBER);
      // Two runs on session m-0's thread, so the sessions list can link to them.
      for (const [i, id] of [runIds.first, runIds.second].entries()) {
        await suite.database.db.insert(schema.runs).values({
          id,
          tenantId: demo,
          workflow: "autonomous",
          threadId: "m-0",
          status: "completed",
          input: { goal: `goal ${i}`, agentId: "pharmacovigilance" },
          createdBy: memberId,
          createdAt: new Date(`2018-03-0${i + 1}T08:00:00Z`),
        });
      }
      const base = Date.parse("2018-03-01T00:00:00Z");
      fixtureEvents = Array.from({ length: EVENTS }, (_, i) => {
        const session = i % SESSIONS;
        return {
          eventType: TYPES[i % TYPES.length],
          sessionId: `m-${session}`,
          // Later sessions end later; the hours keep the sessions apart in time.
          occurredAt: new Date(base + session * 86_400_000 * 20 + i * 60_000),
          tokensUsed: i % 3 === 0 ? (i % 97) + 1 : null,
          costUsd: i % 4 === 0 ? (i % 13) / 1000 : null,
          success: i % 11 !== 0 || session === 6,
          phiAccessed: session % 3 === 1 && i % 5 === 0,
          cacheHit: i % TYPES.length === 3 ? true : null,
        } satisfies TraceEvent;
      });
      // Several commits, two drains: the sessions straddle batches and drains.
      for (let i = 0; i < EVENTS; i += 250) {
        await recordTrace({ tenantId: demo }, fixtureEvents.slice(i, i + 250));
        if (i === 500) await drainTrace();
      }
      await recordTrace({ tenantId: suite.tenants.acme }, [
        { eventType: "llm_call", sessionId: "acme-m", occurredAt: new Date("2018-05-01T00:00:00Z"), tokensUsed: 5 },
      ]);
      await drainTrace();
    }

    it("keeps every session's row equal to the sums of its chained events", async () => {
      await fixture();
      const trace = rowsOf<TraceRow>(
        await suite.database.db.execute(sql`
          select tenant_id, session_id, event_type, tokens_used, cost_usd, phi_accessed, cache_hit, event_success,
            event_timestamp from execution_trace where session_id is not null`),
      );
      const expected = aggregate(trace);
      const stored = rowsOf<Aggregate & { tenant_id: string }>(
        await suite.database.db.execute(sql`
          select tenant_id, session_id, event_count, llm_calls, total_tokens::float8 as total_tokens,
            total_cost::float8 as total_cost, phi_access_count, cache_hits, error_count,
            (extract(epoch from session_start) * 1000)::float8 as session_start,
            (extract(epoch from session_end) * 1000)::float8 as session_end
          from session_metrics`),
      );
      expect(stored.length).toBe(expected.size);
      for (const row of stored) {
        const want = expected.get(`${row.tenant_id}/${row.session_id}`);
        expect(want, row.session_id).toBeDefined();
        const { total_cost, ...rest } = want as Aggregate;
        expect({ ...row, tenant_id: undefined, total_cost: undefined }).toEqual({
          ...rest,
          tenant_id: undefined,
          total_cost: undefined,
        });
        expect(row.total_cost).toBeCloseTo(total_cost, 6);
      }
      // And the fixture's own sessions sum to what the fixture recorded.
      const fromFixture = fixtureEvents.filter((e) => e.sessionId === "m-1");
      const m1 = stored.find((r) => r.session_id === "m-1");
      expect(m1?.event_count).toBe(fromFixture.length);
      expect(m1?.phi_access_count).toBe(fromFixture.filter((e) => e.phiAccessed).length);
      expect(m1?.total_tokens).toBe(fromFixture.reduce((s, e) => s + (e.tokensUsed ?? 0), 0));
    });

    const list = async (email: string, query: string) => {
      const res = await client.get(email, sessionsRoute.GET, `/api/audit/sessions?${query}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body as { items: AuditSessionItem[]; next_cursor: string | null };
    };
    const fixtureSessions = () => {
      const bySession = new Map<string, TraceEvent[]>();
      for (const e of fixtureEvents)
        bySession.set(e.sessionId as string, [...(bySession.get(e.sessionId as string) ?? []), e]);
      return [...bySession.entries()]
        .map(([id, events]) => ({
          id,
          end: Math.max(...events.map((e) => (e.occurredAt as Date).getTime())),
          phi: events.some((e) => e.phiAccessed),
          errors: events.filter((e) => e.success === false).length,
        }))
        .sort((a, b) => b.end - a.end || (a.id < b.id ? 1 : -1));
    };

    it("lists sessions newest first with their sums, and filters by PHI, errors, agent and time", async () => {
      await fixture();
      const want = fixtureSessions();
      const { items } = await list(ADMIN, YEAR);
      expect(items.map((i) => i.sessionId)).toEqual(want.map((s) => s.id));
      expect(items.map((i) => i.errorCount)).toEqual(want.map((s) => s.errors));
      expect(items.map((i) => new Date(i.sessionEnd).getTime())).toEqual(want.map((s) => s.end));
      const ids = async (q: string) => (await list(ADMIN, `${YEAR}&${q}`)).items.map((i) => i.sessionId);
      expect(await ids("has_phi=true")).toEqual(want.filter((s) => s.phi).map((s) => s.id));
      expect(await ids("has_phi=false")).toEqual(want.filter((s) => !s.phi).map((s) => s.id));
      expect(await ids("has_errors=true")).toEqual(want.filter((s) => s.errors > 0).map((s) => s.id));
      expect(await ids("has_errors=false")).toEqual(want.filter((s) => s.errors === 0).map((s) => s.id));
      expect(await ids("agent=pharmacovigilance")).toEqual(["m-0"]);
      const m0 = items.find((i) => i.sessionId === "m-0");
      expect(m0).toMatchObject({
        runCount: 2,
        agent: { slug: "pharmacovigilance" },
        user: { name: expect.any(String) },
      });
      const windowStart = Date.parse("2018-04-01T00:00:00Z");
      const windowEnd = Date.parse("2018-05-31T23:59:59.999Z");
      expect((await list(ADMIN, "from=2018-04-01&to=2018-05-31")).items.map((i) => i.sessionId)).toEqual(
        want.filter((s) => s.end >= windowStart && s.end <= windowEnd).map((s) => s.id),
      );
    });

    it("pages with a cursor through every session exactly once", async () => {
      await fixture();
      const walked: string[] = [];
      let cursor: string | null = null;
      do {
        const page: { items: AuditSessionItem[]; next_cursor: string | null } = await list(
          ADMIN,
          `${YEAR}&limit=3${cursor ? `&cursor=${cursor}` : ""}`,
        );
        walked.push(...page.items.map((i) => i.sessionId));
        cursor = page.next_cursor;
      } while (cursor);
      expect(walked).toEqual(fixtureSessions().map((s) => s.id));
    });

    it("links a session to its runs through the runs list's session filter", async () => {
      await fixture();
      const res = await client.get(ADMIN, runsRoute.GET, "/api/audit/runs?session=m-0");
      expect(res.status).toBe(200);
      const items = (res.body as { items: AuditRunItem[] }).items;
      expect(items.map((i) => i.id)).toEqual([runIds.second, runIds.first]);
    });

    it("shows each tenant only its own, and refuses members, reviewers and bad input", async () => {
      await fixture();
      expect((await list(ACME_ADMIN, YEAR)).items.map((i) => i.sessionId)).toEqual(["acme-m"]);
      expect((await list(ADMIN, YEAR)).items.some((i) => i.sessionId === "acme-m")).toBe(false);
      for (const email of [MEMBER, REVIEWER]) {
        const res = await client.get(email, sessionsRoute.GET, "/api/audit/sessions");
        expect(res.status).toBe(403);
        expect(res.body).toMatchObject({ status: "error", code: "FORBIDDEN" });
      }
      for (const query of ["cursor=abc", "has_phi=maybe", "limit=101", "from=2018-02-01&to=2018-01-01", "sort=x"]) {
        const res = await client.get(ADMIN, sessionsRoute.GET, `/api/audit/sessions?${query}`);
        expect(res.status, query).toBe(400);
        expect(res.body).toMatchObject({ status: "error", code: "VALIDATION_FAILED" });
      }
    });
  });
}
