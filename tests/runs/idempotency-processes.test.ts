import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, setActiveDatabase } from "@/lib/db";
import { getRun, installWorkflows, type RunActor } from "@/lib/runs";
import { boot } from "@/lib/server";
import { crashLocations, kill9, type Location, worker } from "../support/crash";
import { type EffectServer, startEffectServer } from "../support/effect-server";
import { effectWorkflow } from "../support/effect-workflow";
import { type SeededTenants, seedTenants } from "../support/seeded";

installWorkflows([effectWorkflow]);

// Exactly once for a tool with a side effect (#33 item 3): a process killed after its step called
// the tool, before the step's checkpoint, leaves the step to run again from the checkpoint before
// it in another process. The re-run must call with the same idempotency key, so the tool's server
// (a real MCP server, tests/support/effect-server.ts) performs the effect once; another run's step
// must call with a key of its own, so its effect is not mistaken for a repeat.

async function seeded(location: Location): Promise<SeededTenants> {
  const database = await location.open();
  const tenants = await seedTenants(database, { knowledge: false });
  await database.close();
  return tenants;
}

async function recoverToEnd(location: Location, tenant: string, runId: string) {
  const recovering = worker(location, ["recover", tenant, runId]);
  try {
    return (await recovering.line) as { runId: string; status: string };
  } finally {
    // Wait for it to be gone: the embedded database opens in one process at a time, and the
    // test opens it next.
    const child = recovering.child;
    if (child.exitCode === null && child.signalCode === null) {
      await Promise.race([kill9(child), new Promise((resolve) => setTimeout(resolve, 10_000))]);
    }
  }
}

for (const target of crashLocations()) {
  describe(`idempotency keys across a crash on ${target.name}`, { timeout: 300_000 }, () => {
    let location: Location;
    let server: EffectServer;
    beforeAll(async () => {
      location = await target.prepare();
      server = await startEffectServer();
    });
    afterAll(async () => {
      setActiveDatabase(undefined);
      await server?.close();
      await target.cleanup();
    });

    it(`on ${target.name}: a step re-run after kill -9 calls its tool with the same key; the effect happens once`, async () => {
      const tenants = await seeded(location);
      const input = JSON.stringify({ mcpUrl: server.url });
      const runIds: string[] = [];
      const keys: string[] = [];
      // Two runs, each killed right after its step's call: two distinct effects, each once.
      for (let i = 0; i < 2; i++) {
        const first = worker(location, ["start-effect", tenants.demo, input], { VIGIL_TEST_FREEZE_AFTER_EFFECT: "1" });
        const effected = (await first.line) as { runId: string; receipt: string; key: string };
        await kill9(first.child);
        expect(effected.key).toMatch(/^[0-9a-f]{64}$/);
        expect(effected.receipt).toBe(`receipt-${i + 1}`);
        expect(await recoverToEnd(location, tenants.demo, effected.runId)).toMatchObject({ status: "completed" });
        runIds.push(effected.runId);
        keys.push(effected.key);
      }

      // Each step was called twice (before the kill, and by its re-run), both times with its key.
      expect(server.calls.map((c) => c.key)).toEqual([keys[0], keys[0], keys[1], keys[1]]);
      expect(keys[0]).not.toBe(keys[1]);
      // ...and each effect happened once.
      expect(server.effects).toEqual([
        { key: keys[0], receipt: "receipt-1" },
        { key: keys[1], receipt: "receipt-2" },
      ]);

      const database: Database = await location.open();
      setActiveDatabase(database);
      try {
        await boot({ sweeps: false });
        const actor: RunActor = { tenantId: tenants.demo, userId: "crash-test", role: "member" };
        for (const [i, runId] of runIds.entries()) {
          const run = await getRun(actor, runId);
          expect(run.status).toBe("completed");
          // The re-run got the first call's receipt back and went on with it; each step ran to its end once.
          expect(run.state).toEqual({ done: ["prepare", "effect", "finish"], receipt: `receipt-${i + 1}` });
        }
      } finally {
        setActiveDatabase(undefined);
        await database.close();
      }
    });
  });
}
