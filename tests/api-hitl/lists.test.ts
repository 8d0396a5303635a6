import { beforeAll, describe, expect, it } from "vitest";
import * as decisionRoute from "@/app/api/hitl/cases/[id]/decision/route";
import * as escalationRoute from "@/app/api/hitl/cases/[id]/escalation/route";
import * as casesRoute from "@/app/api/hitl/cases/route";
import * as clarificationsRoute from "@/app/api/hitl/clarifications/route";
import * as decisionsRoute from "@/app/api/hitl/decisions/route";
import * as escalationsRoute from "@/app/api/hitl/escalations/route";
import * as countsRoute from "@/app/api/hitl/queue/counts/route";
import * as queueRoute from "@/app/api/hitl/queue/route";
import * as slaRoute from "@/app/api/hitl/sla-policies/[adapter]/route";
import * as statsRoute from "@/app/api/hitl/stats/route";
import { appTargets } from "../support/databases";
import { seededDatabase, userIdOf } from "../support/seeded";
import {
  ACME_ADMIN,
  ACME_MEMBER,
  ADMIN,
  caseBody,
  type HitlClient,
  hitlClient,
  hitlSnapshot,
  MEMBER,
  REVIEWER,
  rid,
} from "./support";

interface Item {
  id: string;
  state: string;
  priority: string;
  createdAt: number;
  decidedAt: number | null;
  dueAt: number | null;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

for (const target of appTargets()) {
  describe(`HITL list API on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });
    const api: HitlClient = hitlClient();
    const ids: string[] = [];
    let decided: { approved: string[]; rejected: string[] };
    let startedAt = 0;

    const isOpen = (id: string) => !decided.approved.includes(id) && !decided.rejected.includes(id);

    async function submit(email: string, body: Record<string, unknown> = {}) {
      const res = await api.post(email, casesRoute.POST, "/api/hitl/cases", caseBody(body));
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.caseId as string;
    }

    async function decide(email: string, id: string, outcome: "approved" | "rejected") {
      const res = await api.post(
        email,
        decisionRoute.POST,
        `/api/hitl/cases/${id}/decision`,
        { request_id: rid("decide"), decision: outcome },
        { id },
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }

    /** Every page of a list, following next_cursor. */
    async function walk(email: string, handler: unknown, path: string) {
      const seen: Item[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const sep = path.includes("?") ? "&" : "?";
        const url: string = cursor ? `${path}${sep}cursor=${encodeURIComponent(cursor)}` : path;
        const res = await api.get(email, handler, url);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body.count).toBe((res.body.items as Item[]).length);
        seen.push(...(res.body.items as Item[]));
        cursor = res.body.next_cursor as string | null;
        pages += 1;
        expect(pages).toBeLessThan(50);
      } while (cursor);
      return { items: seen, pages };
    }

    beforeAll(async () => {
      startedAt = Date.now();
      // 23 cases: a few high priority, a few with a ticket ref; 6 decided by two people.
      for (let i = 0; i < 23; i++) {
        ids.push(
          await submit(i % 3 === 0 ? REVIEWER : MEMBER, {
            priority: i % 5 === 0 ? "high" : undefined,
            refs: i % 7 === 0 ? [{ ref_type: "ticket", ref_key: "jira", ref_value: `OPS-${i}` }] : undefined,
          }),
        );
      }
      decided = { approved: [ids[0], ids[1], ids[2], ids[3]], rejected: [ids[4], ids[5]] };
      for (const id of decided.approved) await decide(REVIEWER, id, "approved");
      for (const id of decided.rejected) await decide(ADMIN, id, "rejected");
    });

    it("answers an empty queue as success with no items and no cursor", async () => {
      for (const email of [ACME_MEMBER, ACME_ADMIN]) {
        const res = await api.get(email, queueRoute.GET, "/api/hitl/queue");
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ status: "success", count: 0, items: [], next_cursor: null });
      }
      const counts = await api.get(ACME_MEMBER, countsRoute.GET, "/api/hitl/queue/counts");
      expect(counts.body).toEqual({
        status: "success",
        counts: { pending: 0, needsClarification: 0, escalated: 0, overdue: 0, byAdapter: {}, byPriority: {} },
      });
      const cases = await api.get(ACME_MEMBER, casesRoute.GET, "/api/hitl/cases?state=approved");
      expect(cases.body).toEqual({ status: "success", count: 0, items: [], next_cursor: null });
    });

    it("walks every page of the queue and of the case list once, newest first", async () => {
      const queue = await walk(REVIEWER, queueRoute.GET, "/api/hitl/queue?limit=4");
      const open = ids.filter(isOpen);
      expect(queue.items.map((i) => i.id).sort()).toEqual([...open].sort());
      expect(new Set(queue.items.map((i) => i.id)).size).toBe(queue.items.length);
      expect(queue.pages).toBe(5); // 17 items by 4
      const created = queue.items.map((i) => i.createdAt);
      expect(created).toEqual([...created].sort((a, b) => b - a));

      const all = await walk(MEMBER, casesRoute.GET, "/api/hitl/cases?limit=5");
      expect(all.items.map((i) => i.id).sort()).toEqual([...ids].sort());
      expect(new Set(all.items.map((i) => i.id)).size).toBe(ids.length);

      const byDecision = await walk(MEMBER, casesRoute.GET, "/api/hitl/cases?sort=decided&limit=4");
      expect(byDecision.items.map((i) => i.id).sort()).toEqual([...decided.approved, ...decided.rejected].sort());
      const decidedAt = byDecision.items.map((i) => i.decidedAt ?? 0);
      expect(decidedAt).toEqual([...decidedAt].sort((a, b) => b - a));
    });

    it("filters cases by state, outcome, decider, submitter, priority, ref and time (epoch ms or ISO)", async () => {
      const list = async (query: string, email = REVIEWER) => {
        const res = await api.get(email, casesRoute.GET, `/api/hitl/cases?limit=100&${query}`);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        return (res.body.items as Item[]).map((i) => i.id).sort();
      };
      const reviewerId = await userIdOf(suite.database, REVIEWER);
      const adminId = await userIdOf(suite.database, ADMIN);
      const memberId = await userIdOf(suite.database, MEMBER);

      expect(await list("state=approved,rejected")).toEqual([...decided.approved, ...decided.rejected].sort());
      expect(await list("decision_outcome=rejected")).toEqual([...decided.rejected].sort());
      expect(await list(`decided_by=${reviewerId}`)).toEqual([...decided.approved].sort());
      expect(await list(`decided_by=${adminId}&decision_outcome=approved`)).toEqual([]);
      expect(await list(`submitter_id=${memberId}`)).toEqual(ids.filter((_, i) => i % 3 !== 0).sort());
      expect(await list("priority=high")).toEqual(ids.filter((_, i) => i % 5 === 0).sort());
      expect(await list("ref_type=ticket&ref_value=OPS-7")).toEqual([ids[7]]);
      expect(await list("ref_type=ticket&ref_key=jira&ref_value=OPS-7")).toEqual([ids[7]]);
      expect(await list("ref_type=ticket&ref_key=github&ref_value=OPS-7")).toEqual([]);
      expect(await list("ref_type=neo4j_node&ref_value=OPS-7")).toEqual([]);
      expect(await list("adapter_id=plan_approval")).toEqual([]);
      expect(await list("adapter_id=lgv_troubleshooting")).toEqual([...ids].sort());
      expect(await list("old_schema=true")).toEqual([]);

      const all = [...ids].sort();
      expect(await list(`created_from=${startedAt}&created_to=${Date.now()}`)).toEqual(all);
      const today = new Date().toISOString().slice(0, 10);
      expect(await list(`created_from=${today}&created_to=${today}`)).toEqual(all);
      expect(await list(`created_from=${new Date(startedAt).toISOString()}`)).toEqual(all);
      expect(await list(`created_to=${startedAt - 1}`)).toEqual([]);
      expect(await list(`decided_from=${startedAt}&decision_outcome=approved`)).toEqual([...decided.approved].sort());
      expect(await list("decided_to=2001-01-01")).toEqual([]);
    });

    it("refuses bad query parameters with 400 and the failing parameter, never 500", async () => {
      const before = await hitlSnapshot(suite.database);
      const bad: [unknown, string, string][] = [
        [casesRoute.GET, "state=bogus", "state.0"],
        [casesRoute.GET, "state=", "state"],
        [casesRoute.GET, "limit=0", "limit"],
        [casesRoute.GET, "limit=101", "limit"],
        [casesRoute.GET, "limit=abc", "limit"],
        [casesRoute.GET, "limit=-3", "limit"],
        [casesRoute.GET, "escalated=yes", "escalated"],
        [casesRoute.GET, "priority=asap", "priority"],
        [casesRoute.GET, "decision_outcome=modified", "decision_outcome"],
        [casesRoute.GET, "priority=urgent", "priority"],
        [casesRoute.GET, "sort=oldest", "sort"],
        [casesRoute.GET, "decided_from=yesterday", "decided_from"],
        [casesRoute.GET, "created_to=2025-13-45", "created_to"],
        [casesRoute.GET, "created_from=99999999999999999999", "created_from"],
        [casesRoute.GET, "decided_from=2025-02-01&decided_to=2025-01-01", "decided_from"],
        [casesRoute.GET, "ref_type=run", "ref_value"],
        [casesRoute.GET, "ref_value=OPS-7", "ref_value"],
        [casesRoute.GET, "ref_key=jira", "ref_key"],
        [casesRoute.GET, "ref_type=Ticket-Tracker&ref_value=1", "ref_type"],
        // The old names are refused, not read.
        [casesRoute.GET, "ref_kind=external&ref_id=ticket-7", ""],
        [casesRoute.GET, "outcome=approved", ""],
        [casesRoute.GET, "created_by=someone", ""],
        [casesRoute.GET, "adapter=lgv_troubleshooting", ""],
        [casesRoute.GET, "cursor=garbage", "cursor"],
        [casesRoute.GET, "status=pending", ""],
        [queueRoute.GET, "state=done", "state.0"],
        [queueRoute.GET, "cursor=WzEsMl0", "cursor"],
        [queueRoute.GET, "outcome=approved", ""],
        [decisionsRoute.GET, "from=tomorrow", "from"],
        [decisionsRoute.GET, "limit=1000", "limit"],
        [statsRoute.GET, "bucket=minute", "bucket"],
        [statsRoute.GET, "bucket=hour&from=2020-01-01&to=2021-01-01", "bucket"],
        [statsRoute.GET, "from=2025-02-01&to=2025-01-01", "from"],
        [escalationsRoute.GET, "which=soon", "which"],
        [escalationsRoute.GET, "horizon_hours=-1", "horizon_hours"],
        [escalationsRoute.GET, "horizon_hours=0", "horizon_hours"],
        [clarificationsRoute.GET, "limit=x", "limit"],
      ];
      for (const [handler, query, path] of bad) {
        const res = await api.get(REVIEWER, handler, `/api/hitl/x?${query}`);
        expect(res.status, `${query}: ${JSON.stringify(res.body)}`).toBe(400);
        expect(res.body).toMatchObject({ status: "error", code: "VALIDATION_FAILED" });
        expect(
          (res.body.details as { path: string }[]).map((d) => d.path),
          query,
        ).toContain(path);
      }
      expect(await hitlSnapshot(suite.database)).toEqual(before);
    });

    it("counts the open queue by state, adapter and priority", async () => {
      const res = await api.get(MEMBER, countsRoute.GET, "/api/hitl/queue/counts");
      expect(res.status).toBe(200);
      const open = 17;
      const highOpen = ids.filter((id, i) => i % 5 === 0 && isOpen(id)).length;
      expect(res.body.counts).toMatchObject({
        pending: open,
        needsClarification: 0,
        byAdapter: { lgv_troubleshooting: open },
        byPriority: { high: highOpen, normal: open - highOpen },
      });
    });

    it("filters the queue by priority and escalation and lists the decided on request", async () => {
      const high = await api.get(REVIEWER, queueRoute.GET, "/api/hitl/queue?priority=high&limit=100");
      expect((high.body.items as Item[]).every((i) => i.priority === "high" && i.state === "pending")).toBe(true);
      expect(high.body.count).toBe(ids.filter((id, i) => i % 5 === 0 && isOpen(id)).length);
      const done = await api.get(REVIEWER, queueRoute.GET, "/api/hitl/queue?state=approved,rejected&limit=100");
      expect(done.body.count).toBe(6);
      const escalated = await api.get(REVIEWER, queueRoute.GET, "/api/hitl/queue?escalated=true");
      expect(escalated.body.count).toBe(0);
    });

    it("reports decision stats per bucket, empty buckets included", async () => {
      const now = Date.now();
      const res = await api.get(MEMBER, statsRoute.GET, `/api/hitl/stats?bucket=hour&from=${now - 2 * DAY}&to=${now}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const buckets = res.body.buckets as { start: number; submitted: number; decided: number }[];
      expect(buckets.length).toBeGreaterThanOrEqual(48);
      expect(buckets.length).toBeLessThanOrEqual(49);
      for (let i = 1; i < buckets.length; i++) expect(buckets[i].start - buckets[i - 1].start).toBe(HOUR);
      expect(buckets.reduce((n, b) => n + b.submitted, 0)).toBe(23);
      expect(res.body.totals).toMatchObject({
        submitted: 23,
        decided: 6,
        approved: 4,
        rejected: 2,
        approvalRate: 4 / 6,
        rejectionRate: 2 / 6,
      });
      expect(buckets.filter((b) => b.submitted === 0 && b.decided === 0).length).toBeGreaterThan(40);

      const week = await api.get(MEMBER, statsRoute.GET, "/api/hitl/stats");
      expect(week.body).toMatchObject({ bucket: "day", totals: { submitted: 23 } });
      expect((week.body.buckets as unknown[]).length).toBeGreaterThanOrEqual(7);
      const limit = await api.get(
        MEMBER,
        statsRoute.GET,
        `/api/hitl/stats?bucket=hour&from=${now - 999 * HOUR}&to=${now}`,
      );
      expect(limit.status).toBe(200);
      const over = await api.get(
        MEMBER,
        statsRoute.GET,
        `/api/hitl/stats?bucket=hour&from=${now - 1001 * HOUR}&to=${now}`,
      );
      expect(over.status).toBe(400);
    });

    it("lists decisions by actor and time range", async () => {
      const adminId = await userIdOf(suite.database, ADMIN);
      const byAdmin = await api.get(REVIEWER, decisionsRoute.GET, `/api/hitl/decisions?actor=${adminId}`);
      expect((byAdmin.body.items as { caseId: string }[]).map((d) => d.caseId).sort()).toEqual(
        [...decided.rejected].sort(),
      );
      const all = await walk(REVIEWER, decisionsRoute.GET, `/api/hitl/decisions?from=${startedAt}&limit=4`);
      expect(all.items).toHaveLength(6);
      const none = await api.get(REVIEWER, decisionsRoute.GET, `/api/hitl/decisions?to=${startedAt - 1}`);
      expect(none.body).toEqual({ status: "success", count: 0, items: [], next_cursor: null });
    });

    it("lists cases due and overdue under an SLA policy", async () => {
      const policy = await api.put(
        ADMIN,
        slaRoute.PUT,
        "/api/hitl/sla-policies/critical_decision",
        { due_hours: 2, calendar: "calendar", escalate_to: "admin" },
        { adapter: "critical_decision" },
      );
      expect(policy.status, JSON.stringify(policy.body)).toBe(200);
      const id = await submit(MEMBER, {
        adapter_id: "critical_decision",
        payload: { question: "Ship the fix tonight?", options: ["yes", "no"] },
      });
      const due = await api.get(REVIEWER, escalationsRoute.GET, "/api/hitl/escalations?which=due&horizon_hours=3");
      expect(due.status).toBe(200);
      expect(due.body.items).toEqual([expect.objectContaining({ id, overdue: false, dueInMs: expect.any(Number) })]);
      const tooSoon = await api.get(REVIEWER, escalationsRoute.GET, "/api/hitl/escalations?which=due&horizon_hours=1");
      expect(tooSoon.body.count).toBe(0);
      const overdue = await api.get(REVIEWER, escalationsRoute.GET, "/api/hitl/escalations?which=overdue");
      expect(overdue.body).toEqual({ status: "success", count: 0, items: [], next_cursor: null });

      const escalate = await api.post(
        REVIEWER,
        escalationRoute.POST,
        `/api/hitl/cases/${id}/escalation`,
        { request_id: rid(), target: "admin" },
        { id },
      );
      expect(escalate.status).toBe(200);
      const escalated = await api.get(REVIEWER, queueRoute.GET, "/api/hitl/queue?escalated=true");
      expect((escalated.body.items as Item[]).map((i) => i.id)).toEqual([id]);
      const counts = await api.get(REVIEWER, countsRoute.GET, "/api/hitl/queue/counts");
      expect(counts.body.counts).toMatchObject({ escalated: 1, byAdapter: { critical_decision: 1 } });
    });
  });
}
