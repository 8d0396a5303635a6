import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { withTenant } from "@/lib/db";
import { registerDefaultAdapters } from "@/lib/hitl";
import { testTargets } from "../support/databases";
import { dbErrorOf } from "../support/errors";
import { seededDatabase } from "../support/seeded";
import { actors, submitLgv } from "./support";

for (const target of testTargets()) {
  describe(`HITL tables' security on ${target.name}`, () => {
    const suite = seededDatabase(target);
    const scope = () => ({ tenantId: suite.tenants.demo });

    beforeAll(async () => {
      await registerDefaultAdapters(scope());
    });

    it("the app role cannot update or delete events, cases or refs", async () => {
      const { caseId } = await submitLgv(actors(suite.tenants).member);
      for (const statement of [
        sql`update hitl_events set notes = 'edited' where case_id = ${caseId}`,
        sql`delete from hitl_events where case_id = ${caseId}`,
        sql`update hitl_cases set payload_json = '{}' where case_id = ${caseId}`,
        sql`delete from hitl_cases where case_id = ${caseId}`,
        sql`update hitl_case_refs set ref_value = 'x' where case_id = ${caseId}`,
        sql`delete from hitl_case_refs where case_id = ${caseId}`,
      ]) {
        expect(await dbErrorOf(withTenant(scope(), (tx) => tx.execute(statement)))).toMatch(/permission denied/);
      }
    });

    it("a row of a case lives in the case's tenant, even for the owner", async () => {
      const { caseId } = await submitLgv(actors(suite.tenants).member);
      const foreign = sql`insert into hitl_case_refs (tenant_id, case_id, ref_type, ref_key, ref_value, created_at_ms)
        values (${suite.tenants.acme}, ${caseId}, 'ticket', 'id', 'x', ${Date.now()})`;
      expect(await dbErrorOf(suite.database.db.execute(foreign))).toMatch(/hitl_case_refs_case_id_tenant_id/);
    });

    it("every HITL table has forced row-level security", async () => {
      const rows = await suite.database.db.execute<{
        relname: string;
        relrowsecurity: boolean;
        relforcerowsecurity: boolean;
      }>(
        sql`select relname, relrowsecurity, relforcerowsecurity from pg_class where relname like 'hitl_%' and relkind = 'r' order by relname`,
      );
      const list = (Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows) as {
        relname: string;
        relrowsecurity: boolean;
        relforcerowsecurity: boolean;
      }[];
      expect(list.map((r) => r.relname)).toEqual([
        "hitl_case_refs",
        "hitl_cases",
        "hitl_checkpoints",
        "hitl_events",
        "hitl_schema_registry",
        "hitl_sla_policies",
        "hitl_state",
      ]);
      expect(list.every((r) => r.relrowsecurity && r.relforcerowsecurity)).toBe(true);
    });

    it("the database refuses events the state machine would not write", async () => {
      const { caseId } = await submitLgv(actors(suite.tenants).member);
      const insert = (
        type: string,
        extra: {
          question?: string;
          answer?: string;
          outcome?: string;
          to?: string;
          notes?: string;
          supersedes?: string;
        },
        seq = 2,
      ) =>
        withTenant(scope(), (tx) =>
          tx.execute(sql`insert into hitl_events
            (event_id, tenant_id, case_id, seq, event_type, request_id, intent_hash, from_state, to_state,
             actor_kind, actor_id, actor_name, actor_role, principal_role,
             question, answer, decision_outcome, notes, supersedes_event_id, event_json, created_at_ms)
            values (${`HEV-${randomUUID()}`}, ${scope().tenantId}, ${caseId}, ${seq}, ${type}, ${randomUUID()}, 'h',
              'pending', ${extra.to ?? "pending"}, 'operator', 'u', 'U', 'reviewer', 'reviewer',
              ${extra.question ?? null}, ${extra.answer ?? null}, ${extra.outcome ?? null}, ${extra.notes ?? ""},
              ${extra.supersedes ?? null}, '{}', ${Date.now()})`),
        );
      expect(await dbErrorOf(insert("needs_clarification", { to: "needs_clarification" }))).toMatch(
        /hitl_events_question_check/,
      );
      expect(await dbErrorOf(insert("clarification_provided", { answer: "  " }))).toMatch(/hitl_events_answer_check/);
      expect(await dbErrorOf(insert("decision_recorded", { to: "approved" }))).toMatch(/hitl_events_decision_check/);
      expect(await dbErrorOf(insert("decision_recorded", { outcome: "modified", to: "modified" }))).toMatch(/check/);
      expect(await dbErrorOf(insert("reopened", {}))).toMatch(/hitl_events_type_check/);
      // A supersede names the decision it replaces and says why; nothing else names one.
      expect(
        await dbErrorOf(insert("decision_superseded", { outcome: "rejected", to: "rejected", notes: "wrong site" })),
      ).toMatch(/hitl_events_supersede_check/);
      // An escalation records its level and target, and never moves the case.
      expect(await dbErrorOf(insert("escalated", {}))).toMatch(/hitl_events_escalation_check/);
      // Two terminal decisions on one case: the partial unique index keeps the first.
      await insert("decision_recorded", { outcome: "approved", to: "approved" }, 2);
      expect(await dbErrorOf(insert("decision_recorded", { outcome: "rejected", to: "rejected" }, 3))).toMatch(
        /hitl_events_one_decision_uq/,
      );
    });
  });
}
