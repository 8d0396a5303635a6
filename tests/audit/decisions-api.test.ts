import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as decisionsRoute from "@/app/api/audit/decisions/route";
import * as decisionRoute from "@/app/api/hitl/cases/[id]/decision/route";
import * as supersedeRoute from "@/app/api/hitl/cases/[id]/supersede/route";
import * as casesRoute from "@/app/api/hitl/cases/route";
import type { AuditDecision } from "@/lib/audit/contract";
import { rowsOf } from "@/lib/db";
import { ACME_ADMIN, ADMIN, caseBody, hitlClient, lgvPayload, MEMBER, REVIEWER, rid } from "../api-hitl/support";
import { appTargets } from "../support/databases";
import { seededDatabase, userIdOf } from "../support/seeded";

for (const target of appTargets()) {
  describe(`the decisions audit on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });
    const client = hitlClient();

    async function submit(): Promise<string> {
      const res = await client.post(MEMBER, casesRoute.POST, "/api/hitl/cases", caseBody({ payload: lgvPayload() }));
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.caseId as string;
    }
    async function decide(email: string, id: string, body: Record<string, unknown>, handler = decisionRoute.POST) {
      const path = handler === decisionRoute.POST ? "decision" : "supersede";
      const res = await client.post(
        email,
        handler,
        `/api/hitl/cases/${id}/${path}`,
        { request_id: rid(), ...body },
        { id },
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const list = async (email: string, query = "") => {
      const res = await client.get(email, decisionsRoute.GET, `/api/audit/decisions?${query}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body as { items: AuditDecision[]; next_cursor: string | null };
    };

    it("lists every decision with its actor, notes, modifications and latency, newest first", async () => {
      const a = await submit();
      const b = await submit();
      const c = await submit();
      await decide(REVIEWER, a, { decision: "approved", notes: "fine", modifications: { proposed_next_action: "x" } });
      await decide(REVIEWER, b, { decision: "rejected", notes: "not enough evidence" });
      await decide(ADMIN, b, { decision: "approved", notes: "evidence was attached" }, supersedeRoute.POST);
      await decide(ADMIN, c, { decision: "approved" });

      // What the case log says, read independently of the audit query.
      const expected = rowsOf<{
        event_id: string;
        case_id: string;
        outcome: string;
        actor_id: string;
        latency: string;
      }>(
        await suite.database.db.execute(sql`select e.event_id, e.case_id, e.decision_outcome as outcome, e.actor_id,
            (e.created_at_ms - (select c.created_at_ms from hitl_cases c where c.case_id = e.case_id))::text as latency
          from hitl_events e where e.tenant_id = ${suite.tenants.demo}
            and e.event_type in ('decision_recorded', 'decision_superseded')
          order by e.created_at_ms desc, e.event_id desc`),
      );
      expect(expected).toHaveLength(4);
      const { items } = await list(ADMIN);
      expect(items.map((d) => d.eventId)).toEqual(expected.map((e) => e.event_id));
      expect(items.map((d) => d.latencyMs)).toEqual(expected.map((e) => Number(e.latency)));
      expect(items.map((d) => [d.caseId, d.outcome, d.actor.id])).toEqual(
        expected.map((e) => [e.case_id, e.outcome, e.actor_id]),
      );
      const reviewerId = await userIdOf(suite.database, REVIEWER);
      const onA = items.find((d) => d.caseId === a);
      expect(onA).toMatchObject({
        type: "decision_recorded",
        adapter: "lgv_troubleshooting",
        outcome: "approved",
        notes: "fine",
        modifications: { proposed_next_action: "x" },
        actor: { id: reviewerId, principalRole: "reviewer" },
        runId: null,
      });
      const superseding = items.find((d) => d.caseId === b && d.type === "decision_superseded");
      expect(superseding).toMatchObject({
        outcome: "approved",
        notes: "evidence was attached",
        actor: { principalRole: "admin" },
      });
      expect(superseding?.supersedesEventId).toBe(
        items.find((d) => d.caseId === b && d.type === "decision_recorded")?.eventId,
      );

      // By operator, by date, a page at a time.
      const byReviewer = await list(ADMIN, `operator=${reviewerId}`);
      expect(byReviewer.items.map((d) => d.caseId).sort()).toEqual([a, b].sort());
      expect((await list(ADMIN, "to=2000-01-01")).items).toEqual([]);
      expect((await list(ADMIN, `from=${Date.now() - 3_600_000}`)).items).toHaveLength(4);
      const walked: string[] = [];
      let cursor: string | null = null;
      do {
        const page: { items: AuditDecision[]; next_cursor: string | null } = await list(
          ADMIN,
          `limit=1${cursor ? `&cursor=${cursor}` : ""}`,
        );
        walked.push(...page.items.map((d) => d.eventId));
        cursor = page.next_cursor;
      } while (cursor);
      expect(walked).toEqual(expected.map((e) => e.event_id));
    });

    it("is for admins of the tenant only, and checks its query", async () => {
      for (const email of [MEMBER, REVIEWER]) {
        const res = await client.get(email, decisionsRoute.GET, "/api/audit/decisions");
        expect(res.status).toBe(403);
      }
      expect((await list(ACME_ADMIN)).items).toEqual([]);
      for (const query of ["limit=0", "from=soon", "cursor=abc", "x=1", "from=2021-02-01&to=2021-01-01"]) {
        const res = await client.get(ADMIN, decisionsRoute.GET, `/api/audit/decisions?${query}`);
        expect(res.status, query).toBe(400);
        expect(res.body.code).toBe("VALIDATION_FAILED");
      }
    });
  });
}
