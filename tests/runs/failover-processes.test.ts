import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, rowsOf, setActiveDatabase } from "@/lib/db";
import { getRun, installWorkflows, type RunActor } from "@/lib/runs";
import { boot } from "@/lib/server";
import { crashLocations, kill9, killGroup, type Location, terminate, worker } from "../support/crash";
import { testTargets } from "../support/databases";
import { allEvents, expectContiguous, visibleText } from "../support/runs";
import { type SeededTenants, seedTenants } from "../support/seeded";
import { STEP_COUNT, stepName, stepWorkflow } from "../support/step-workflow";

installWorkflows([stepWorkflow]);

// Failover with real processes: a run killed after each of five steps in a row still completes
// (every database), and a SIGTERM hands a worker's runs to another worker at once (a server
// database, which two processes can share; an embedded one is locked to one process).

/** How soon after the SIGTERM another instance must write each run's next event. */
const HANDOVER_MS = 2000;

async function seeded(location: Location): Promise<SeededTenants> {
  const database = await location.open();
  const tenants = await seedTenants(database);
  await database.close();
  return tenants;
}

async function openHere(location: Location): Promise<Database> {
  const database = await location.open();
  setActiveDatabase(database);
  await boot({ sweeps: false });
  return database;
}

const stepsOf = (events: Awaited<ReturnType<typeof allEvents>>, node: string) =>
  events.filter((e) => e.type === "step" && (e.payload as { node: string }).node === node);

for (const target of crashLocations()) {
  describe(`failover between worker processes on ${target.name}`, { timeout: 420_000 }, () => {
    let location: Location;
    beforeAll(async () => {
      location = await target.prepare();
    });
    afterAll(async () => {
      setActiveDatabase(undefined);
      await target.cleanup();
    });

    it(`on ${target.name}: a run killed after each of five steps in a row still completes, each step once`, async () => {
      const tenants = await seeded(location);
      const input = JSON.stringify({ delayMs: 300 });
      const first = worker(location, ["start-steps", tenants.demo, input]);
      const { runId, node } = (await first.line) as { runId: string; node: string };
      await kill9(first.child);
      const reached = [node];
      // Each restarted process recovers the run, completes one more step and dies: five
      // recoveries in a row, each after progress.
      for (let i = 0; i < 5; i++) {
        const next = worker(location, ["recover-one-step", tenants.demo, runId]);
        reached.push(((await next.line) as { node: string }).node);
        await kill9(next.child);
      }
      expect(reached).toEqual(Array.from({ length: 6 }, (_, i) => stepName(i + 1)));
      const last = worker(location, ["recover", tenants.demo, runId]);
      expect(await last.line).toMatchObject({ runId, status: "completed" });
      await new Promise((r) => last.child.on("exit", r));

      const database = await openHere(location);
      const actor: RunActor = { tenantId: tenants.demo, userId: "crash-test", role: "member" };
      const run = await getRun(actor, runId);
      expect(run.status).toBe("completed");
      // The state's reducer appends each step that ran: a step run twice would show twice.
      expect(run.state.done).toEqual(Array.from({ length: STEP_COUNT }, (_, i) => stepName(i + 1)));
      const events = await allEvents(actor, runId);
      expectContiguous(events);
      expect(stepsOf(events, "recovery")).toHaveLength(6);
      for (let i = 1; i <= STEP_COUNT; i++) {
        expect(
          stepsOf(events, stepName(i)).filter((e) => (e.payload as { status: string }).status === "done"),
        ).toHaveLength(1);
      }
      setActiveDatabase(undefined);
      await database.close();
    });

    if (target.name !== "postgres") return;

    it("on postgres: SIGTERM of a worker executing 12 runs; the other continues each within 2 s, nothing lost or twice", async () => {
      const tenants = await seeded(location);
      const words = Array.from({ length: 120 }, (_, i) => `word${i}`).join(" ");
      // A lease far longer than the handover allows: only the handover, not its expiry, can pass.
      const env = { VIGIL_RUN_LEASE_MS: "30000" };
      const standby = worker(location, ["standby", tenants.demo], env);
      const executing = worker(
        location,
        [
          "start-many",
          tenants.demo,
          JSON.stringify({ count: 12, message: words, requireApproval: false, delayMs: 80 }),
        ],
        env,
      );
      try {
        await standby.line;
        const { runIds } = (await executing.line) as { runIds: string[] };
        const signalledAt = Date.now();
        await terminate(executing.child);

        const database = await openHere(location);
        const actor: RunActor = { tenantId: tenants.demo, userId: "crash-test", role: "member" };
        for (const runId of runIds) {
          for (;;) {
            const run = await getRun(actor, runId);
            if (run.status !== "running") break;
            await new Promise((r) => setTimeout(r, 200));
          }
        }
        for (const runId of runIds) {
          const run = await getRun(actor, runId);
          expect(run.status).toBe("completed");
          expect(run.state.output).toBe(words);
          const events = await allEvents(actor, runId);
          expectContiguous(events);
          expect(events.filter((e) => e.type === "finish")).toHaveLength(1);
          // The other instance's first event: the recovery step, from the handed-over checkpoint.
          const [recovery] = stepsOf(events, "recovery");
          expect(recovery, `run ${runId} was not handed over`).toBeDefined();
          expect(stepsOf(events, "recovery")).toHaveLength(1);
          const [row] = rowsOf<{ at: Date | string }>(
            await database.db.execute(
              sql`select created_at as at from run_events where run_id = ${runId} and seq = ${recovery.seq}`,
            ),
          );
          const stall = new Date(row.at).getTime() - signalledAt;
          expect(stall, `run ${runId} continued ${stall} ms after the SIGTERM\n${executing.output()}`).toBeLessThan(
            HANDOVER_MS,
          );
          // The answer reads once from where the other instance took over.
          expect(visibleText(events.filter((e) => e.seq > recovery.seq))).toBe(words);
        }
        setActiveDatabase(undefined);
        await database.close();
      } finally {
        killGroup(executing.child);
        killGroup(standby.child);
      }
    });
  });
}

// The SIGTERM handover above is registered only for a server database. Without one it fails
// here, saying what it needs, instead of leaving the run looking complete without it.
if (!testTargets().some((t) => t.name === "postgres")) {
  describe("failover between worker processes on postgres", () => {
    it("on postgres: SIGTERM of a worker executing 12 runs; the other continues each within 2 s, nothing lost or twice", () => {
      throw new Error(
        "TEST_DATABASE_URL is not set: the SIGTERM handover needs a server PostgreSQL that two worker processes share (e.g. TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres).",
      );
    });
  });
}
