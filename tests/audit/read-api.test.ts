import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as runRoute from "@/app/api/audit/runs/[id]/route";
import * as runsRoute from "@/app/api/audit/runs/route";
import type { AuditRunDetail, AuditRunItem, HierarchyNode } from "@/lib/audit/contract";
import { rowsOf, schema } from "@/lib/db";
import { drainTrace, recordTrace, type TraceEvent } from "@/lib/trace";
import { ACME_ADMIN, ADMIN, hitlClient, MEMBER, REVIEWER } from "../api-hitl/support";
import { autonomousApi, DEMO_GOAL } from "../autonomous/support";
import { appTargets } from "../support/databases";
import { seededDatabase, userIdOf } from "../support/seeded";

// Fixture runs are dated in March 2021, before anything the seed or other tests create, so a
// date range picks exactly them.
const MARCH = "from=2021-03-01&to=2021-03-31";

interface FixtureEvent extends TraceEvent {
  eventType: TraceEvent["eventType"];
}

/** The trace of the fixture's main run: what the test expects back, in this order. */
const MAIN_EVENTS: FixtureEvent[] = [
  { eventType: "run_start", nodeName: null },
  { eventType: "node_start", nodeName: "plan", agentId: "fda-regulatory", agentLevel: "l2_expert" },
  {
    eventType: "llm_call",
    nodeName: "plan",
    agentId: "fda-regulatory",
    agentLevel: "l2_expert",
    tokensUsed: 1200,
    costUsd: 0.0123,
    durationMs: 850,
  },
  { eventType: "node_complete", nodeName: "plan", durationMs: 900 },
  { eventType: "subagent_spawn", nodeName: "delegate", agentId: "pharmacovigilance", agentLevel: "l3_specialist" },
  {
    eventType: "llm_call",
    nodeName: "delegate",
    agentId: "pharmacovigilance",
    agentLevel: "l3_specialist",
    tokensUsed: 800,
    costUsd: 0.004567,
    durationMs: 400,
  },
  { eventType: "tool_invocation", nodeName: "act", agentId: "pharmacovigilance", durationMs: 30 },
  { eventType: "tool_result", nodeName: "act", success: false, error: "timeout after 30 s", durationMs: 30_000 },
  { eventType: "constitutional_check", nodeName: "validate", tokensUsed: 300, costUsd: 0.001 },
  { eventType: "run_complete", nodeName: null },
];

const sum = (values: (number | null | undefined)[]) => values.reduce<number>((a, v) => a + (v ?? 0), 0);

function flatten(nodes: HierarchyNode[]): HierarchyNode[] {
  return nodes.flatMap((n) => [n, ...flatten(n.children)]);
}

for (const target of appTargets()) {
  describe(`the audit read API on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });
    const client = hitlClient();
    const ids = { main: randomUUID(), failed: randomUUID(), acme: randomUUID() };
    let memberId = "";
    let adminId = "";

    async function insertRun(
      tenantId: string,
      id: string,
      row: { status: string; createdBy: string; input: unknown; createdAt: string },
    ) {
      await suite.database.db.insert(schema.runs).values({
        id,
        tenantId,
        workflow: "autonomous",
        threadId: `audit-fixture-${id}`,
        status: row.status as "completed",
        input: row.input,
        createdBy: row.createdBy,
        createdAt: new Date(row.createdAt),
        finishedAt: new Date(new Date(row.createdAt).getTime() + 60_000),
      });
    }

    let made: Promise<void> | undefined;
    const fixture = () => {
      made ??= makeFixture();
      return made;
    };

    async function makeFixture() {
      const demo = suite.tenants.demo;
      memberId = await userIdOf(suite.database, MEMBER);
      adminId = await userIdOf(suite.database, ADMIN);
      await insertRun(demo, ids.main, {
        status: "completed",
        createdBy: memberId,
        input: { goal: "Choose the submission path", agentId: "fda-regulatory" },
        createdAt: "2021-03-10T09:00:00Z",
      });
      await insertRun(demo, ids.failed, {
        status: "failed",
        createdBy: adminId,
        input: { goal: "Summarise adverse events", agentId: "pharmacovigilance" },
        createdAt: "2021-03-20T09:00:00Z",
      });
      await insertRun(suite.tenants.acme, ids.acme, {
        status: "completed",
        createdBy: await userIdOf(suite.database, ACME_ADMIN),
        input: { goal: "Acme's own run" },
        createdAt: "2021-03-15T09:00:00Z",
      });
      const start = Date.parse("2021-03-10T09:00:00Z");
      await recordTrace(
        { tenantId: demo },
        MAIN_EVENTS.map((e, i) => ({ ...e, runId: ids.main, occurredAt: new Date(start + i * 1000) })),
      );
      await recordTrace({ tenantId: demo }, [
        { eventType: "run_start", runId: ids.failed },
        {
          eventType: "tool_result",
          runId: ids.failed,
          phiAccessed: true,
          phiFields: ["patient_name"],
          dataClassification: "phi",
        },
        { eventType: "run_failed", runId: ids.failed, success: false, error: "boom" },
      ]);
      await recordTrace({ tenantId: suite.tenants.acme }, [{ eventType: "run_start", runId: ids.acme }]);
      await drainTrace();

      // A tree: the expert, two specialists it spawned (second first in time, first by order),
      // and a worker under the first specialist.
      const root = randomUUID();
      const first = randomUUID();
      const second = randomUUID();
      const worker = randomUUID();
      const spawn = (
        id: string,
        parentId: string | null,
        agentId: string,
        depth: number,
        siblingOrder: number,
        at: string,
        extra: Partial<typeof schema.subAgentHierarchy.$inferInsert> = {},
      ) => ({
        id,
        tenantId: demo,
        runId: ids.main,
        sessionId: "s",
        requestId: "r",
        parentId,
        agentId,
        agentName: agentId,
        agentLevel: depth === 1 ? "l2_expert" : depth === 2 ? "l3_specialist" : "l4_worker",
        taskDescription: `task of ${agentId}`,
        taskStatus: "completed",
        hierarchyDepth: depth,
        siblingOrder,
        spawnedAt: new Date(at),
        ...extra,
      });
      await suite.database.db.insert(schema.subAgentHierarchy).values([
        spawn(worker, first, "calculator-worker", 3, 0, "2021-03-10T09:00:09Z", { tokensUsed: 50, costUsd: 0.0005 }),
        spawn(second, root, "health-economist", 2, 1, "2021-03-10T09:00:03Z", {
          success: false,
          errorMessage: "no data",
          taskStatus: "failed",
        }),
        spawn(first, root, "pharmacovigilance", 2, 0, "2021-03-10T09:00:05Z", { tokensUsed: 800 }),
        spawn(root, null, "fda-regulatory", 1, 0, "2021-03-10T09:00:01Z", { tokensUsed: 1200 }),
      ]);
      await suite.database.db.insert(schema.constitutionalValidations).values([
        {
          validationId: "val-1",
          tenantId: demo,
          runId: ids.main,
          sessionId: "s",
          requestId: "r",
          validatedAt: new Date("2021-03-10T09:00:08Z"),
          contentType: "response",
          isValid: false,
          violations: ["unsupported claim"],
          severity: "high",
          requiresRevision: true,
          principlesChecked: ["accuracy", "citations"],
          principlesFailed: ["citations"],
        },
        {
          validationId: "val-2",
          tenantId: demo,
          runId: ids.main,
          sessionId: "s",
          requestId: "r",
          validatedAt: new Date("2021-03-10T09:00:09Z"),
          contentType: "response",
          isValid: true,
          requiresRevision: false,
          principlesChecked: ["accuracy", "citations"],
        },
      ]);
      const evidence = (claimIndex: number, sourceIndex: number, citationNumber: number) => ({
        tenantId: demo,
        runId: ids.main,
        sessionId: "s",
        requestId: "r",
        claimIndex,
        sourceIndex,
        claimText: `claim ${claimIndex}`,
        claimType: "fact",
        citationNumber,
        primarySourceId: randomUUID(),
        primaryChunkId: randomUUID(),
        primarySourceTitle: `source ${citationNumber}`,
        primarySourceSnippet: "quoted passage",
        primarySourceRelevanceScore: 0.8,
        evidenceLevel: "1B",
        evidenceConfidence: 0.9,
        searchMethod: "hybrid",
      });
      await suite.database.db
        .insert(schema.evidenceChains)
        .values([evidence(1, 1, 2), evidence(0, 0, 1), evidence(0, 1, 3)]);
    }

    const list = async (email: string, query: string) => {
      const res = await client.get(email, runsRoute.GET, `/api/audit/runs?${query}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body as { items: AuditRunItem[]; next_cursor: string | null; count: number };
    };
    const detail = (email: string, id: string) => client.get(email, runRoute.GET, `/api/audit/runs/${id}`, { id });

    it("lists the tenant's runs with trace totals the test sums itself", async () => {
      await fixture();
      const { items } = await list(ADMIN, MARCH);
      expect(items.map((i) => i.id)).toEqual([ids.failed, ids.main]);
      const main = items[1];
      expect(main).toMatchObject({
        status: "completed",
        title: "Choose the submission path",
        agent: { slug: "fda-regulatory" },
        user: { id: memberId, name: expect.any(String) },
        events: MAIN_EVENTS.length,
        tokens: sum(MAIN_EVENTS.map((e) => e.tokensUsed)),
        errors: MAIN_EVENTS.filter((e) => e.success === false).length,
        phiAccesses: 0,
        violations: 1,
      });
      expect(main.costUsd).toBeCloseTo(sum(MAIN_EVENTS.map((e) => e.costUsd)), 6);
      expect(items[0]).toMatchObject({ status: "failed", events: 3, errors: 1, phiAccesses: 1, violations: 0 });
    });

    it("filters by status, agent, user, date, violations and PHI", async () => {
      await fixture();
      const idsOf = async (q: string) => (await list(ADMIN, `${MARCH}&${q}`)).items.map((i) => i.id);
      expect(await idsOf("status=failed")).toEqual([ids.failed]);
      expect(await idsOf("status=completed")).toEqual([ids.main]);
      expect(await idsOf("agent=fda-regulatory")).toEqual([ids.main]);
      expect(await idsOf(`user=${adminId}`)).toEqual([ids.failed]);
      expect(await idsOf("has_violations=true")).toEqual([ids.main]);
      expect(await idsOf("has_violations=false")).toEqual([ids.failed]);
      expect(await idsOf("has_phi=true")).toEqual([ids.failed]);
      expect(await idsOf("has_phi=false")).toEqual([ids.main]);
      expect((await list(ADMIN, "from=2021-03-15&to=2021-03-15")).items).toEqual([]);
      expect((await list(ADMIN, "from=2021-03-20&to=2021-03-20")).items.map((i) => i.id)).toEqual([ids.failed]);
    });

    it("pages with a cursor through every run exactly once", async () => {
      await fixture();
      const all = (await list(ADMIN, "limit=100")).items.map((i) => i.id);
      const walked: string[] = [];
      let cursor: string | null = null;
      do {
        const page: { items: AuditRunItem[]; next_cursor: string | null } = await list(
          ADMIN,
          `limit=1${cursor ? `&cursor=${cursor}` : ""}`,
        );
        walked.push(...page.items.map((i) => i.id));
        cursor = page.next_cursor;
      } while (cursor);
      expect(walked).toEqual(all);
      expect(all).toContain(ids.main);
    });

    it("shows one run's timeline, totals, tree, validations and evidence", async () => {
      await fixture();
      const res = await detail(ADMIN, ids.main);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const body = res.body as unknown as AuditRunDetail;
      expect(body.timeline.map((e) => e.eventType)).toEqual(MAIN_EVENTS.map((e) => e.eventType));
      expect(body.timeline.map((e) => e.nodeName)).toEqual(MAIN_EVENTS.map((e) => e.nodeName ?? null));
      const seqs = body.timeline.map((e) => e.seq);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      expect(body.timeline[7]).toMatchObject({ success: false, error: "timeout after 30 s", durationMs: 30_000 });
      expect(body.timeline[2]).toMatchObject({ agentId: "fda-regulatory", agentLevel: "l2_expert", tokensUsed: 1200 });
      expect(body.timelineTruncated).toBe(false);
      expect(body.totals).toMatchObject({
        events: MAIN_EVENTS.length,
        tokens: sum(MAIN_EVENTS.map((e) => e.tokensUsed)),
        errors: 1,
        durationMs: sum(MAIN_EVENTS.map((e) => e.durationMs)),
        byType: { llm_call: 2, node_start: 1, run_start: 1 },
      });
      expect(body.totals.costUsd).toBeCloseTo(0.0123 + 0.004567 + 0.001, 6);

      // The tree: one root, its children by sibling order (not spawn time), the worker below.
      expect(body.hierarchy).toHaveLength(1);
      const [root] = body.hierarchy;
      expect(root.agentId).toBe("fda-regulatory");
      expect(root.children.map((c) => c.agentId)).toEqual(["pharmacovigilance", "health-economist"]);
      expect(root.children[0].children.map((c) => c.agentId)).toEqual(["calculator-worker"]);
      expect(root.children[1]).toMatchObject({ success: false, errorMessage: "no data", children: [] });
      expect(flatten(body.hierarchy).map((n) => n.depth)).toEqual([1, 2, 3, 2]);

      expect(body.validations.map((v) => [v.validationId, v.isValid, v.severity])).toEqual([
        ["val-1", false, "high"],
        ["val-2", true, null],
      ]);
      expect(body.validations[0].principlesFailed).toEqual(["citations"]);
      expect(body.evidence.map((c) => [c.claimIndex, c.sources.map((s) => s.citationNumber)])).toEqual([
        [0, [1, 3]],
        [1, [2]],
      ]);
      expect(body.checkpoints).toEqual([]);
      expect(body.run).toMatchObject({ id: ids.main, input: { goal: "Choose the submission path" } });
    });

    it("lists a member's consultation with its agent and totals but not what was asked", async () => {
      await fixture();
      const demo = suite.tenants.demo;
      const [agent] = rowsOf<{ id: string }>(
        await suite.database.db.execute(
          sql`select id from agents where tenant_id = ${demo} and slug = 'clinical-trial-designer'`,
        ),
      );
      const sessionId = randomUUID();
      const runId = randomUUID();
      await suite.database.db.insert(schema.chatSessions).values({
        id: sessionId,
        tenantId: demo,
        userId: memberId,
        agentId: agent.id,
        title: "A private question",
      });
      await suite.database.db.insert(schema.runs).values({
        id: runId,
        tenantId: demo,
        workflow: "ask-expert",
        threadId: `chat:${sessionId}`,
        status: "completed",
        input: { message: "A private question about my trial" },
        createdBy: memberId,
        createdAt: new Date("2021-02-01T10:00:00Z"),
      });
      await recordTrace({ tenantId: demo }, [
        { eventType: "llm_call", runId, tokensUsed: 42, costUsd: 0.5 },
        { eventType: "llm_call", runId, tokensUsed: 8, costUsd: 0.25 },
      ]);
      await drainTrace();
      const { items } = await list(ADMIN, "from=2021-02-01&to=2021-02-01");
      expect(items).toHaveLength(1);
      expect(items[0]).toMatchObject({
        id: runId,
        title: null,
        chatSessionId: sessionId,
        agent: { id: agent.id, slug: "clinical-trial-designer" },
        events: 2,
        tokens: 50,
        costUsd: 0.75,
      });
      expect((await list(ADMIN, "from=2021-02-01&to=2021-02-01&agent=clinical-trial-designer")).items).toHaveLength(1);
      expect((await list(ADMIN, `from=2021-02-01&to=2021-02-01&agent=${agent.id}`)).items).toHaveLength(1);
      expect((await list(ADMIN, "from=2021-02-01&to=2021-02-01&agent=fda-regulatory")).items).toHaveLength(0);
      const one = await detail(ADMIN, runId);
      expect(one.body.run).toMatchObject({ title: null, input: null });
    });

    it("refuses members and reviewers, hides other tenants and checks its input", async () => {
      await fixture();
      for (const email of [MEMBER, REVIEWER]) {
        const listed = await client.get(email, runsRoute.GET, "/api/audit/runs");
        expect(listed.status).toBe(403);
        expect(listed.body).toMatchObject({ status: "error", code: "FORBIDDEN" });
        const one = await detail(email, ids.main);
        expect(one.status).toBe(403);
      }
      // An acme admin sees acme's run and nothing of demo's.
      const acme = await list(ACME_ADMIN, MARCH);
      expect(acme.items.map((i) => i.id)).toEqual([ids.acme]);
      const foreign = await detail(ACME_ADMIN, ids.main);
      expect(foreign.status).toBe(404);
      expect(foreign.body.status).toBe("not_found");
      expect((await detail(ADMIN, ids.acme)).status).toBe(404);

      for (const query of [
        "status=done",
        "limit=0",
        "limit=abc",
        "from=yesterday",
        "has_phi=yes",
        "bogus=1",
        "cursor=xyz",
      ]) {
        const res = await client.get(ADMIN, runsRoute.GET, `/api/audit/runs?${query}`);
        expect(res.status, query).toBe(400);
        expect(res.body, query).toMatchObject({ status: "error", code: "VALIDATION_FAILED" });
      }
      const range = await client.get(ADMIN, runsRoute.GET, "/api/audit/runs?from=2021-03-20&to=2021-03-01");
      expect(range.status).toBe(400);
      const badId = await detail(ADMIN, "not-a-run");
      expect(badId.status).toBe(400);
      expect(badId.body.code).toBe("VALIDATION_FAILED");
    });

    it("shows a finished autonomous run's checkpoints with the decisions as the case log has them", async () => {
      const api = autonomousApi(client);
      const runId = await api.start(MEMBER, { goal: DEMO_GOAL, agentId: "fda-regulatory", safetyLevel: "strict" });
      let body = await api.stopped(MEMBER, runId);
      while (body.status === "interrupted") {
        const res = await api.decide(api.waitingOn(body).caseId, "approved", { notes: "looks right" });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        body = await api.stopped(MEMBER, runId);
      }
      expect(body.status).toBe("completed");
      await drainTrace();

      const res = await detail(ADMIN, runId);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const audit = res.body as unknown as AuditRunDetail;
      const db = suite.database.db;
      const cases = rowsOf<{ case_id: string; submitted: string; decided: string; actor_id: string }>(
        await db.execute(sql`select k.case_id, c.created_at_ms::text as submitted, e.created_at_ms::text as decided,
            e.actor_id from hitl_checkpoints k join hitl_cases c on c.case_id = k.case_id
            join hitl_events e on e.case_id = k.case_id and e.event_type = 'decision_recorded'
          where k.run_id = ${runId} order by k.created_at`),
      );
      expect(cases.length).toBeGreaterThan(0);
      expect(audit.checkpoints.map((c) => c.caseId)).toEqual(cases.map((c) => c.case_id));
      const reviewerId = await userIdOf(suite.database, REVIEWER);
      for (const [i, checkpoint] of audit.checkpoints.entries()) {
        expect(checkpoint.approvalStatus).toBe("approved");
        expect(checkpoint.decisions).toHaveLength(1);
        expect(checkpoint.decisions[0]).toMatchObject({
          outcome: "approved",
          notes: "looks right",
          actor: { id: reviewerId, principalRole: "reviewer" },
          latencyMs: Number(cases[i].decided) - Number(cases[i].submitted),
        });
        expect(cases[i].actor_id).toBe(reviewerId);
      }
      const [{ n: traced }] = rowsOf<{ n: number }>(
        await db.execute(sql`select count(*)::int as n from execution_trace where run_id = ${runId}`),
      );
      expect(audit.timeline).toHaveLength(traced);
      expect(audit.totals.events).toBe(traced);
      const [{ n: spawns }] = rowsOf<{ n: number }>(
        await db.execute(sql`select count(*)::int as n from sub_agent_hierarchy where run_id = ${runId}`),
      );
      expect(spawns).toBeGreaterThan(0);
      expect(flatten(audit.hierarchy)).toHaveLength(spawns);
      expect(audit.run).toMatchObject({
        status: "completed",
        agent: { slug: "fda-regulatory" },
        title: DEMO_GOAL.slice(0, 200),
      });
    });
  });
}
