import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as chartsRoute from "@/app/api/audit/charts/route";
import { auditCharts, lastDays, runsPerDay } from "@/lib/audit";
import type { AuditCharts } from "@/lib/audit/contract";
import { schema } from "@/lib/db";
import { drainTrace, recordTrace, type TraceEvent } from "@/lib/trace";
import { ACME_ADMIN, ADMIN, hitlClient, MEMBER, REVIEWER } from "../api-hitl/support";
import { appTargets } from "../support/databases";
import { seededDatabase } from "../support/seeded";
import { DAY_MS, dayOfIso, daysBetween, type FixtureCase, insertCase, median, stateOf } from "./chart-fixtures";

// Runs at known instants around UTC midnights in 2021, counted per day by the test itself.
const FIXTURE: { at: string; status: "completed" | "failed" | "cancelled" | "interrupted" }[] = [
  { at: "2021-06-01T00:00:00.000Z", status: "completed" },
  { at: "2021-06-01T23:59:59.999Z", status: "failed" },
  { at: "2021-06-02T00:00:00.000Z", status: "completed" },
  { at: "2021-06-02T12:00:00.000Z", status: "completed" },
  { at: "2021-06-02T13:00:00.000Z", status: "cancelled" },
  { at: "2021-06-04T08:00:00.000Z", status: "interrupted" },
  { at: "2021-06-05T08:00:00.000Z", status: "completed" },
];

// The overview's 7-day range as seen at NOW: 2021-02-25 to 2021-03-03, whole UTC days.
const NOW = Date.parse("2021-03-03T10:00:00Z");
const FIRST = "2021-02-25";
const LAST = "2021-03-03";
const inRange = (iso: string) => dayOfIso(iso) >= FIRST && dayOfIso(iso) <= LAST;

const CASES: FixtureCase[] = [
  {
    submittedAt: "2021-02-28T23:00:00.000Z",
    events: [{ type: "decision_recorded", at: "2021-03-01T00:00:00.000Z", outcome: "approved" }],
  },
  {
    submittedAt: "2021-02-28T23:59:59.999Z",
    events: [
      { type: "needs_clarification", at: "2021-03-01T01:00:00.000Z" },
      // A revised question does not restart the clock.
      { type: "needs_clarification", at: "2021-03-01T02:00:00.000Z" },
      { type: "clarification_provided", at: "2021-03-01T05:00:00.000Z" },
      { type: "decision_recorded", at: "2021-03-01T23:59:59.999Z", outcome: "rejected" },
    ],
  },
  {
    submittedAt: "2021-03-01T00:00:00.000Z",
    events: [{ type: "decision_recorded", at: "2021-03-01T06:00:00.000Z", outcome: "approved", modified: true }],
  },
  {
    submittedAt: "2021-03-01T10:00:00.000Z",
    events: [
      { type: "decision_recorded", at: "2021-03-01T12:00:00.000Z", outcome: "rejected" },
      { type: "decision_superseded", at: "2021-03-02T09:00:00.000Z", outcome: "approved" },
    ],
  },
  {
    submittedAt: "2021-03-02T00:00:00.000Z",
    events: [{ type: "decision_recorded", at: "2021-03-02T00:30:00.000Z", outcome: "rejected", system: true }],
  },
  {
    submittedAt: "2021-03-02T08:00:00.000Z",
    events: [
      { type: "needs_clarification", at: "2021-03-02T09:00:00.000Z" },
      { type: "clarification_provided", at: "2021-03-03T09:00:00.000Z" },
      { type: "needs_clarification", at: "2021-03-03T10:00:00.000Z" },
      { type: "clarification_provided", at: "2021-03-03T10:30:00.000Z" },
    ],
  },
  { submittedAt: "2021-03-03T23:59:59.999Z", events: [] },
  // Outside the range on either side, though one is decided and one answered inside it.
  {
    submittedAt: "2021-03-04T00:00:00.000Z",
    events: [{ type: "decision_recorded", at: "2021-03-04T01:00:00.000Z", outcome: "approved" }],
  },
  {
    submittedAt: "2021-02-24T23:59:59.999Z",
    events: [{ type: "decision_recorded", at: "2021-02-25T00:00:00.000Z", outcome: "approved" }],
  },
  {
    submittedAt: "2021-02-24T20:00:00.000Z",
    events: [
      { type: "needs_clarification", at: "2021-02-24T22:00:00.000Z" },
      { type: "clarification_provided", at: "2021-02-25T02:00:00.000Z" },
    ],
  },
];

// Acme's case on the same days is not demo's.
const ACME_CASE: FixtureCase = {
  submittedAt: "2021-03-01T12:00:00.000Z",
  events: [
    { type: "needs_clarification", at: "2021-03-01T12:10:00.000Z" },
    { type: "clarification_provided", at: "2021-03-01T12:20:00.000Z" },
    { type: "decision_recorded", at: "2021-03-01T13:00:00.000Z", outcome: "rejected" },
  ],
};

/** What each chart should show for the cases, worked out from the fixture alone. */
function expectedCaseCharts(cases: FixtureCase[], days: string[]) {
  const casesPerDay = days.map((day) => {
    const on = cases.filter((c) => dayOfIso(c.submittedAt) === day).map(stateOf);
    return {
      day,
      approved: on.filter((s) => s === "approved").length,
      rejected: on.filter((s) => s === "rejected").length,
      open: on.filter((s) => s !== "approved" && s !== "rejected").length,
    };
  });
  // The standing decision of each case is its last one.
  const standing = cases.flatMap((c) => {
    const decisions = c.events.filter((e) => e.type === "decision_recorded" || e.type === "decision_superseded");
    return decisions.length ? [decisions[decisions.length - 1]] : [];
  });
  const decisions = days.map((day) => {
    const on = standing.filter((d) => dayOfIso(d.at) === day) as Extract<
      FixtureCase["events"][number],
      { outcome: string }
    >[];
    const people = on.filter((d) => !d.system);
    const counts = {
      approved: people.filter((d) => d.outcome === "approved" && !d.modified).length,
      modified: people.filter((d) => d.outcome === "approved" && d.modified).length,
      rejected: people.filter((d) => d.outcome === "rejected").length,
      system: on.length - people.length,
    };
    const share = (n: number) => (on.length ? n / on.length : null);
    return {
      day,
      decided: on.length,
      ...counts,
      approvedShare: share(counts.approved),
      modifiedShare: share(counts.modified),
      rejectedShare: share(counts.rejected),
      systemShare: share(counts.system),
    };
  });
  const reviews = cases.flatMap((c) =>
    c.events
      .filter((e) => e.type === "decision_recorded" && !e.system)
      .map((e) => ({ day: dayOfIso(e.at), ms: Date.parse(e.at) - Date.parse(c.submittedAt) })),
  );
  const turnarounds = cases.flatMap((c) => {
    const found: { day: string; ms: number }[] = [];
    let askedAt: number | null = null;
    for (const e of c.events) {
      if (e.type === "needs_clarification" && askedAt === null) askedAt = Date.parse(e.at);
      if (e.type === "clarification_provided" && askedAt !== null) {
        found.push({ day: dayOfIso(e.at), ms: Date.parse(e.at) - askedAt });
        askedAt = null;
      }
    }
    return found;
  });
  const reviewTimes = days.map((day) => {
    const r = reviews.filter((x) => x.day === day).map((x) => x.ms);
    const t = turnarounds.filter((x) => x.day === day).map((x) => x.ms);
    return {
      day,
      reviewMedianMs: median(r),
      reviews: r.length,
      clarificationMedianMs: median(t),
      clarifications: t.length,
    };
  });
  return { casesPerDay, decisions, reviewTimes };
}

interface LlmCall {
  at: string;
  agent: "a-id" | "a-slug" | "run" | "none";
  tokens: number | null;
  micros: number | null;
}

const LLM_CALLS: LlmCall[] = [
  { at: "2021-02-28T23:59:59.999Z", agent: "a-id", tokens: 100, micros: 12_500 },
  { at: "2021-03-01T00:00:00.000Z", agent: "a-slug", tokens: 50, micros: 2_000 },
  { at: "2021-03-01T12:00:00.000Z", agent: "run", tokens: 30, micros: 1_000 },
  { at: "2021-03-02T12:00:00.000Z", agent: "run", tokens: null, micros: null },
  { at: "2021-03-03T23:59:59.999Z", agent: "none", tokens: 7, micros: 100 },
  { at: "2021-03-04T00:00:00.000Z", agent: "a-id", tokens: 5_000, micros: 900_000 },
  { at: "2021-02-24T23:59:59.999Z", agent: "a-id", tokens: 6_000, micros: 800_000 },
];

const NODE_EVENTS: { at: string; type: "node_start" | "node_complete" | "node_error"; node: string }[] = [
  { at: "2021-03-01T01:00:00.000Z", type: "node_start", node: "plan" },
  { at: "2021-03-01T01:00:01.000Z", type: "node_complete", node: "plan" },
  { at: "2021-03-01T02:00:00.000Z", type: "node_complete", node: "plan" },
  { at: "2021-03-02T02:00:00.000Z", type: "node_error", node: "plan" },
  { at: "2021-03-03T02:00:00.000Z", type: "node_complete", node: "plan" },
  { at: "2021-03-01T03:00:00.000Z", type: "node_complete", node: "answer" },
  { at: "2021-02-25T00:00:00.000Z", type: "node_complete", node: "answer" },
  { at: "2021-03-02T03:00:00.000Z", type: "node_error", node: "delegate" },
  { at: "2021-03-04T00:00:00.000Z", type: "node_error", node: "answer" },
];

for (const target of appTargets()) {
  describe(`audit charts on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });
    const client = hitlClient();

    const insertRun = (tenantId: string, at: string, status: string, input: unknown = {}) =>
      suite.database.db
        .insert(schema.runs)
        .values({
          id: randomUUID(),
          tenantId,
          workflow: "autonomous",
          threadId: `chart-${randomUUID()}`,
          status: status as "completed",
          input,
          createdBy: "chart-fixture",
          createdAt: new Date(at),
        })
        .returning({ id: schema.runs.id });

    it("counts runs per UTC day by outcome, every day of the range present", async () => {
      for (const run of FIXTURE) await insertRun(suite.tenants.demo, run.at, run.status);
      // Acme's run on the same day is not demo's.
      await insertRun(suite.tenants.acme, "2021-06-02T10:00:00Z", "failed");

      const from = Date.parse("2021-06-01T15:00:00Z");
      const to = Date.parse("2021-06-04T01:00:00Z");
      const days = await runsPerDay({ tenantId: suite.tenants.demo }, { from, to });

      const expected = ["2021-06-01", "2021-06-02", "2021-06-03", "2021-06-04"].map((day) => {
        const on = FIXTURE.filter((r) => r.at.startsWith(day));
        return {
          day,
          completed: on.filter((r) => r.status === "completed").length,
          failed: on.filter((r) => r.status === "failed").length,
          other: on.filter((r) => r.status !== "completed" && r.status !== "failed").length,
        };
      });
      expect(days).toEqual(expected);
      expect(days[2]).toEqual({ day: "2021-06-03", completed: 0, failed: 0, other: 0 });

      const acme = await runsPerDay({ tenantId: suite.tenants.acme }, { from, to });
      expect(acme.map((d) => d.failed)).toEqual([0, 1, 0, 0]);
    });

    it("spans the last n days up to today", () => {
      const now = Date.parse("2021-06-30T10:00:00Z");
      const range = lastDays(30, now);
      expect(new Date(range.from).toISOString().slice(0, 10)).toBe("2021-06-01");
      expect(range.to).toBe(now);
    });

    describe("the overview's charts over a week of fixtures", () => {
      const agents: { a: { id: string; slug: string; name: string }; b: { id: string; slug: string; name: string } } =
        {} as never;
      let charts: AuditCharts;
      let acmeCharts: AuditCharts;

      beforeAll(async () => {
        const demoAgents = await suite.database.db
          .select({ id: schema.agents.id, slug: schema.agents.slug, name: schema.agents.name })
          .from(schema.agents)
          .where(eq(schema.agents.tenantId, suite.tenants.demo))
          .orderBy(schema.agents.slug);
        const [acmeAgent] = await suite.database.db
          .select({ id: schema.agents.id })
          .from(schema.agents)
          .where(eq(schema.agents.tenantId, suite.tenants.acme));
        expect(demoAgents.length).toBeGreaterThan(1);
        agents.a = demoAgents[0];
        agents.b = demoAgents[1];

        for (const c of CASES) await insertCase(suite.database, suite.tenants.demo, c);
        await insertCase(suite.database, suite.tenants.acme, ACME_CASE);

        // A run that names its agent by slug; its model calls name none.
        const [run] = await insertRun(suite.tenants.demo, "2021-03-01T05:00:00Z", "completed", {
          agentId: agents.b.slug,
        });
        await insertRun(suite.tenants.acme, "2021-03-01T05:00:00Z", "failed");
        const demo: TraceEvent[] = [
          ...LLM_CALLS.map(
            (call): TraceEvent => ({
              eventType: "llm_call",
              occurredAt: new Date(call.at),
              agentId: call.agent === "a-id" ? agents.a.id : call.agent === "a-slug" ? agents.a.slug : null,
              runId: call.agent === "run" ? run.id : null,
              tokensUsed: call.tokens,
              costUsd: call.micros === null ? null : call.micros / 1e6,
            }),
          ),
          ...NODE_EVENTS.map(
            (e): TraceEvent => ({
              eventType: e.type,
              nodeName: e.node,
              occurredAt: new Date(e.at),
              success: e.type !== "node_error",
            }),
          ),
        ];
        await recordTrace({ tenantId: suite.tenants.demo }, demo);
        await recordTrace({ tenantId: suite.tenants.acme }, [
          {
            eventType: "llm_call",
            occurredAt: new Date("2021-03-01T12:00:00Z"),
            agentId: acmeAgent.id,
            tokensUsed: 1_000,
            costUsd: 0.5,
          },
          { eventType: "node_error", nodeName: "plan", occurredAt: new Date("2021-03-01T12:00:00Z"), success: false },
        ]);
        await drainTrace();

        charts = await auditCharts({ tenantId: suite.tenants.demo }, 7, NOW);
        acmeCharts = await auditCharts({ tenantId: suite.tenants.acme }, 7, NOW);
      });

      it("covers the last seven whole UTC days", () => {
        expect([charts.days, charts.from, charts.to]).toEqual([7, FIRST, LAST]);
        expect(charts.runs.map((d) => d.day)).toEqual(daysBetween(FIRST, LAST));
        expect(charts.runs.find((d) => d.day === "2021-03-01")).toEqual({
          day: "2021-03-01",
          completed: 1,
          failed: 0,
          other: 0,
        });
      });

      it("counts cases, standing decisions and review times per day", () => {
        const expected = expectedCaseCharts(CASES, daysBetween(FIRST, LAST));
        expect(charts.cases).toEqual(expected.casesPerDay);
        expect(charts.decisions).toEqual(expected.decisions);
        expect(charts.reviewTimes).toEqual(expected.reviewTimes);
        // The figures the fixture was built to show, spelled out.
        const mar1 = charts.reviewTimes.find((d) => d.day === "2021-03-01");
        expect(mar1?.reviewMedianMs).toBe(((2 + 6) / 2) * 3_600_000);
        expect(mar1?.clarificationMedianMs).toBe(4 * 3_600_000);
        expect(charts.reviewTimes.find((d) => d.day === "2021-03-03")?.clarificationMedianMs).toBe(
          (DAY_MS + 1_800_000) / 2,
        );
        expect(charts.decisions.find((d) => d.day === "2021-03-02")).toMatchObject({
          decided: 2,
          approved: 1,
          system: 1,
        });
      });

      it("sums model calls, tokens and cost per day and per agent", () => {
        const calls = LLM_CALLS.filter((c) => inRange(c.at));
        const usage = daysBetween(FIRST, LAST).map((day) => {
          const on = calls.filter((c) => dayOfIso(c.at) === day);
          return {
            day,
            calls: on.length,
            tokens: on.reduce((n, c) => n + (c.tokens ?? 0), 0),
            micros: on.reduce((n, c) => n + (c.micros ?? 0), 0),
          };
        });
        expect(charts.usage.map((d) => [d.day, d.calls, d.tokens])).toEqual(
          usage.map((d) => [d.day, d.calls, d.tokens]),
        );
        for (const [i, d] of charts.usage.entries()) expect(d.costUsd).toBeCloseTo(usage[i].micros / 1e6, 6);

        // An event's agent by id or slug is one agent; the run's agent answers for events without one.
        const keyOf = (c: LlmCall) =>
          c.agent === "a-id" || c.agent === "a-slug" ? "a" : c.agent === "run" ? "b" : null;
        const byAgent = (["a", "b", null] as const)
          .map((key) => {
            const of = calls.filter((c) => keyOf(c) === key);
            const agent = key ? agents[key] : null;
            return {
              agentId: agent?.id ?? null,
              name: agent?.name ?? "No agent recorded",
              calls: of.length,
              tokens: of.reduce((n, c) => n + (c.tokens ?? 0), 0),
              costUsd: of.reduce((n, c) => n + (c.micros ?? 0), 0) / 1e6,
            };
          })
          .sort((x, y) => y.costUsd - x.costUsd);
        expect(charts.usageByAgent.map(({ costUsd, ...rest }) => rest)).toEqual(
          byAgent.map(({ costUsd, ...rest }) => rest),
        );
        for (const [i, a] of charts.usageByAgent.entries()) expect(a.costUsd).toBeCloseTo(byAgent[i].costUsd, 6);
      });

      it("rates each node's ended attempts that failed, worst first", () => {
        const ended = NODE_EVENTS.filter((e) => e.type !== "node_start" && inRange(e.at));
        const expected = [...new Set(ended.map((e) => e.node))]
          .map((node) => {
            const of = ended.filter((e) => e.node === node);
            const errors = of.filter((e) => e.type === "node_error").length;
            return { node, attempts: of.length, errors, rate: errors / of.length };
          })
          .sort((x, y) => y.rate - x.rate || y.attempts - x.attempts || x.node.localeCompare(y.node));
        expect(charts.nodeErrors).toEqual(expected);
        expect(charts.nodeErrors.map((n) => n.node)).toEqual(["delegate", "plan", "answer"]);
      });

      it("counts nothing of another tenant's", () => {
        const expected = expectedCaseCharts([ACME_CASE], daysBetween(FIRST, LAST));
        expect(acmeCharts.cases).toEqual(expected.casesPerDay);
        expect(acmeCharts.decisions).toEqual(expected.decisions);
        expect(acmeCharts.reviewTimes).toEqual(expected.reviewTimes);
        expect(acmeCharts.usage.reduce((n, d) => n + d.tokens, 0)).toBe(1_000);
        expect(acmeCharts.usageByAgent.map((a) => a.calls)).toEqual([1]);
        expect(acmeCharts.nodeErrors).toEqual([{ node: "plan", attempts: 1, errors: 1, rate: 1 }]);
        expect(acmeCharts.runs.reduce((n, d) => n + d.failed + d.completed + d.other, 0)).toBe(1);
      });

      it("answers an empty range with every day present and nothing counted", async () => {
        const empty = await auditCharts({ tenantId: suite.tenants.demo }, 30, Date.parse("2020-01-15T12:00:00Z"));
        expect(empty.runs).toHaveLength(30);
        expect([empty.from, empty.to]).toEqual(["2019-12-17", "2020-01-15"]);
        for (const series of [empty.runs, empty.cases, empty.decisions, empty.usage]) {
          for (const { day, ...figures } of series)
            expect(
              Object.values(figures).every((n) => n === 0 || (n === null && series === empty.decisions)),
              day,
            ).toBe(true);
        }
        expect(empty.decisions.every((d) => d.approvedShare === null && d.rejectedShare === null)).toBe(true);
        expect(empty.reviewTimes.every((d) => d.reviewMedianMs === null && d.clarificationMedianMs === null)).toBe(
          true,
        );
        expect([empty.usageByAgent, empty.nodeErrors]).toEqual([[], []]);
      });
    });

    describe("GET /api/audit/charts", () => {
      it("answers admins with the range asked for, today last", async () => {
        await recordTrace({ tenantId: suite.tenants.demo }, [
          { eventType: "llm_call", agentId: "isolation-probe", tokensUsed: 777, costUsd: 0.01 },
        ]);
        await drainTrace();
        const today = new Date().toISOString().slice(0, 10);
        const week = await client.get(ADMIN, chartsRoute.GET, "/api/audit/charts?days=7");
        expect(week.status, JSON.stringify(week.body)).toBe(200);
        expect(week.body).toMatchObject({ status: "success", days: 7, to: today });
        expect(week.body.usage).toHaveLength(7);
        expect((week.body as unknown as AuditCharts).usageByAgent.map((a) => a.agentId)).toContain("isolation-probe");

        const fallback = await client.get(ADMIN, chartsRoute.GET, "/api/audit/charts");
        const fallbackCharts = fallback.body as unknown as AuditCharts;
        expect([fallbackCharts.days, fallbackCharts.runs.length]).toEqual([30, 30]);
        const quarter = await client.get(ADMIN, chartsRoute.GET, "/api/audit/charts?days=90");
        expect(quarter.body.cases).toHaveLength(90);

        const acme = await client.get(ACME_ADMIN, chartsRoute.GET, "/api/audit/charts?days=7");
        expect(acme.status).toBe(200);
        expect((acme.body as unknown as AuditCharts).usageByAgent.map((a) => a.agentId)).not.toContain(
          "isolation-probe",
        );
      });

      it("is for admins only and refuses a range it does not offer", async () => {
        for (const email of [MEMBER, REVIEWER]) {
          const res = await client.get(email, chartsRoute.GET, "/api/audit/charts?days=30");
          expect(res.status, email).toBe(403);
        }
        for (const query of ["days=14", "days=abc", "days=", "days=7.0", "days=-7", "x=1"]) {
          const res = await client.get(ADMIN, chartsRoute.GET, `/api/audit/charts?${query}`);
          expect(res.status, query).toBe(400);
          expect(res.body).toMatchObject({ status: "error", code: "VALIDATION_FAILED" });
        }
      });
    });
  });
}
