import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ResearchPublicState } from "@/lib/agents/contract";
import { rowsOf, setActiveDatabase } from "@/lib/db";
import { getRun } from "@/lib/runs";
import { boot } from "@/lib/server";
import { drainTrace, verifyChain } from "@/lib/trace";
import { crashLocations, kill9, type Location, worker } from "../support/crash";
import { allEvents, expectContiguous } from "../support/runs";
import { seedTenants } from "../support/seeded";

// A server killed with SIGKILL in phase 3 of a research run, right after its first task's result
// was committed: a restarted server resumes at the next task, and no task runs twice.

const INPUT = {
  query: "How long does the FDA review of a 510(k) take, and what is a predicate device?",
  agentId: "research-analyst",
};

for (const target of crashLocations()) {
  describe(`a research run on ${target.name} killed with SIGKILL during phase 3`, () => {
    let location: Location;
    beforeAll(async () => {
      location = await target.prepare();
    });
    afterAll(async () => {
      setActiveDatabase(undefined);
      await target.cleanup();
    });

    it("resumes at the next task after a restart; nothing is duplicated", async () => {
      const seeded = await location.open();
      const tenants = await seedTenants(seeded);
      await seeded.close();

      const a = worker(location, ["research-to-first-task", tenants.demo, JSON.stringify(INPUT)]);
      const reported = (await a.line) as { runId: string; status: string; tasks: number };
      await kill9(a.child);
      const { runId } = reported;
      expect(reported.status).toBe("executing");
      // There is a next task to resume at.
      expect(reported.tasks).toBeGreaterThanOrEqual(2);

      const b = worker(location, ["recover", tenants.demo, runId]);
      expect(await b.line).toMatchObject({ runId, status: "completed" });
      await new Promise((r) => b.child.on("exit", r));

      const database = await location.open();
      setActiveDatabase(database);
      await boot({ sweeps: false });
      try {
        const actor = { tenantId: tenants.demo, userId: "crash-test", role: "member" as const };
        const run = await getRun(actor, runId);
        expect(run.status).toBe("completed");
        const state = run.state as unknown as ResearchPublicState;
        const plan = state.todo_list?.items ?? [];
        expect(plan).toHaveLength(reported.tasks);
        expect(plan.every((t) => t.completed)).toBe(true);
        // Each approved task summarised once, in the plan's order.
        expect(state.task_summaries.map((t) => t.task_id)).toEqual(plan.map((t) => t.id));
        const report = state.final_report;
        if (!report) throw new Error("no report");
        expect(report.answer).toMatch(/90 FDA days/);
        // Context entries: one per passage, none gathered twice.
        const entries = [...state.primary_context, ...state.secondary_context].map((e) => e.chunk_id);
        const all = [...state.primary_context, ...state.secondary_context];
        expect(
          new Set(entries).size,
          JSON.stringify(
            all
              .filter((e) => entries.filter((x) => x === e.chunk_id).length > 1)
              .map((e) => [e.chunk_id, e.task_id, e.source_type, e.depth, e.context_tier]),
          ),
        ).toBe(entries.length);

        // The event log: contiguous, one recovery, each task done once; after the recovery the
        // first task started is the second of the plan.
        const events = await allEvents(actor, runId);
        expectContiguous(events);
        const step = (e: (typeof events)[number]) => e.payload as { node: string; status: string };
        const recovery = events.filter((e) => e.type === "step" && step(e).node === "recovery");
        expect(recovery).toHaveLength(1);
        const done = events.filter(
          (e) => e.type === "step" && step(e).node === "execute_task" && step(e).status === "done",
        );
        expect(done).toHaveLength(plan.length);
        expect(done.filter((e) => e.seq < recovery[0].seq)).toHaveLength(1);
        const running = (e: (typeof events)[number]) =>
          e.type === "data" &&
          (e.payload as { name: string }).name === "todo" &&
          ((e.payload as { data: { items: { id: string; status: string }[] } }).data.items.find(
            (i) => i.status === "running",
          )?.id ??
            null);
        const resumedWith = events
          .filter((e) => e.seq > recovery[0].seq)
          .map(running)
          .find(Boolean);
        expect(resumedWith).toBe(String(plan[1].id));
        expect(events.filter((e) => e.type === "finish")).toHaveLength(1);

        // The trace: one start and end of the run, no event twice, every node that started
        // ended, execute_task completed once per task, and the chain verifies. (Research writes
        // its anchor and plan versions as hitl_response entries of its own, so the shared
        // request/response pairing of expectCompleteTrace does not apply.)
        await drainTrace();
        const rows = rowsOf<{ trace_id: string; event_type: string; node_name: string | null }>(
          await database.db.execute(
            sql`select trace_id, event_type, node_name from execution_trace where run_id = ${runId} order by seq`,
          ),
        );
        const count = (type: string, node?: string) =>
          rows.filter((r) => r.event_type === type && (node === undefined || r.node_name === node)).length;
        expect(new Set(rows.map((r) => r.trace_id)).size).toBe(rows.length);
        expect(count("run_start")).toBe(1);
        expect(count("run_complete")).toBe(1);
        for (const node of new Set(rows.filter((r) => r.event_type === "node_start").map((r) => r.node_name ?? ""))) {
          expect(
            count("node_complete", node) + count("node_error", node) + count("hitl_request", node),
            `node ${node}`,
          ).toBe(count("node_start", node));
        }
        expect(count("node_complete", "execute_task")).toBe(plan.length);
        // The attempt the dead process left open is closed before the task ran again.
        expect(count("node_error", "execute_task")).toBeLessThanOrEqual(1);
        expect(await verifyChain(actor)).toMatchObject({ status: "ok", pending: 0 });
      } finally {
        setActiveDatabase(undefined);
        await database.close();
      }
    }, 240_000);
  });
}
