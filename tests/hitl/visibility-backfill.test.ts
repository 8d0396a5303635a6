import { readFile } from "node:fs/promises";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { checkpointRequestId } from "@/lib/checkpoints";
import { rowsOf } from "@/lib/db";
import { caseIdOfRequest, submitCase } from "@/lib/hitl";
import { startRun } from "@/lib/runs";
import { appTargets } from "../support/databases";
import { actorFor, settled } from "../support/runs";
import { seededDatabase } from "../support/seeded";
import { actors, lgvPayload, rid, submitLgv } from "./support";

/** The statements of migration 0033 that fill in existing rows. */
async function backfillStatements(): Promise<string[]> {
  const text = await readFile("drizzle/0033_hitl_case_visibility.sql", "utf8");
  return text
    .split("--> statement-breakpoint")
    .map((s) => s.replace(/^\s*--.*$/gm, "").trim())
    .filter((s) => /^UPDATE/i.test(s));
}

for (const target of appTargets()) {
  describe(`private_to at submission and in migration 0033 on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });
    const demo = () => actors(suite.tenants, "demo");
    const owner = (q: ReturnType<typeof sql>) => suite.database.db.execute(q);
    const privateTo = async (caseId: string) =>
      rowsOf<{ private_to: string | null }>(
        await owner(sql`select private_to from hitl_cases where case_id = ${caseId}`),
      )[0].private_to;

    it("sets the owner when the server opens a case, and the backfill finds the same owner", async () => {
      // A run of the member's that stops for a decision: its case is the member's.
      const member = actorFor(suite.tenants, "member", demo().member.userId);
      const { runId } = await startRun(member, { workflow: "demo-echo", input: { message: "reindex aisle 4" } });
      const run = await settled(member, runId);
      const runCase = await caseIdOfRequest(demo().member, checkpointRequestId(runId, run.pendingInterrupts[0].id));
      if (!runCase) throw new Error("the run opened no case");

      // A review the product opens over someone's consultation: the asker's, not the run's (system).
      const [agent] = rowsOf<{ id: string }>(
        await owner(sql`select id from agents where tenant_id = ${suite.tenants.demo} limit 1`),
      );
      const [session] = rowsOf<{ id: string }>(
        await owner(
          sql`insert into chat_sessions (tenant_id, user_id, agent_id, title)
              values (${suite.tenants.demo}, 'asker-1', ${agent.id}, 'q') returning id`,
        ),
      );
      const chatRef = { ref_type: "chat_session", ref_key: "id", ref_value: session.id };
      const reviewCase = (
        await submitCase(
          demo().system,
          { adapter: "lgv_troubleshooting", payload: lgvPayload(), requestId: rid() },
          { serverRefs: [chatRef] },
        )
      ).caseId;

      // A member's own case, with a chat_session ref a client could still write before: shared.
      const shared = (await submitLgv(demo().member)).caseId;
      await owner(
        sql`insert into hitl_case_refs (tenant_id, case_id, ref_type, ref_key, ref_value, created_at_ms)
            values (${suite.tenants.demo}, ${shared}, 'chat_session', 'id', ${session.id}, 0)`,
      );

      const atSubmission = {
        run: await privateTo(runCase),
        review: await privateTo(reviewCase),
        shared: await privateTo(shared),
      };
      expect(atSubmission).toEqual({ run: demo().member.userId, review: "asker-1", shared: null });

      // Rows written before the column: the migration's backfill gives them the same owners.
      const cases = [runCase, reviewCase, shared];
      await owner(
        sql`update hitl_cases set private_to = null where case_id in (${sql.join(
          cases.map((c) => sql`${c}`),
          sql`, `,
        )})`,
      );
      const statements = await backfillStatements();
      expect(statements).toHaveLength(1);
      for (const statement of statements) await owner(sql.raw(statement));
      expect({
        run: await privateTo(runCase),
        review: await privateTo(reviewCase),
        shared: await privateTo(shared),
      }).toEqual(atSubmission);
    });
  });
}
