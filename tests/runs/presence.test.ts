import { sql } from "drizzle-orm";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { rowsOf, schema } from "@/lib/db";
import { claimStaleRuns } from "@/lib/runs";
import { testTargets } from "../support/databases";
import { seededDatabase } from "../support/seeded";

// An instance that registered its presence and then died (its session ended, as a kill -9 ends
// it) has its runs claimed at once, live leases or not; an instance that never registered, or
// is still present, keeps its runs until their leases run out; a sweeper never takes its own.

const server = testTargets().find((t) => t.name === "postgres");

if (server) {
  describe("instance presence on postgres", () => {
    const suite = seededDatabase(server, { knowledge: false });

    async function insertRuns(owner: string, count: number) {
      const rows = await suite.database.db
        .insert(schema.runs)
        .values(
          Array.from({ length: count }, (_, i) => ({
            tenantId: suite.tenants.demo,
            workflow: "demo-echo",
            threadId: `presence-${owner}-${i}-${Math.random()}`,
            createdBy: "t",
            status: "running" as const,
            leaseOwner: owner,
            // Live for another minute: only presence can make these claimable now.
            leaseExpiresAt: new Date(Date.now() + 60_000),
          })),
        )
        .returning({ id: schema.runs.id });
      return rows.map((r) => r.id);
    }

    /** Another process's presence connection: registers `owner` and keeps its session until ended. */
    async function presentProcess(owner: string) {
      const url = (suite.database as { url?: string }).url as string;
      const session = postgres(url, { max: 1, max_lifetime: 0, onnotice: () => {} });
      const [{ held }] = await session<{ held: boolean }[]>`select vigil_register_instance(${owner}) as held`;
      return { held, session };
    }

    async function waitUntilGone(owner: string) {
      // The server ends a closed connection's session (and its locks) within moments.
      for (let i = 0; i < 100; i++) {
        const result = await suite.database.db.execute(
          sql`select vigil_instance_present(hashtext(${owner})) as present`,
        );
        if (!rowsOf<{ present: boolean }>(result)[0]?.present) return;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`${owner} still present`);
    }

    it("claims the runs of a registered instance whose session ended, before their leases run out", async () => {
      const dead = await presentProcess("instance-dead");
      const alive = await presentProcess("instance-alive");
      expect(dead.held).toBe(true);
      expect(alive.held).toBe(true);
      const deadRuns = await insertRuns("instance-dead", 3);
      const aliveRuns = await insertRuns("instance-alive", 2);
      const unregisteredRuns = await insertRuns("instance-unregistered", 2);

      // Everyone present or unregistered: nothing to claim while the leases live.
      expect(await claimStaleRuns("sweeper", 100)).toEqual([]);

      await dead.session.end();
      await waitUntilGone("instance-dead");
      const claimed = (await claimStaleRuns("sweeper", 100)).map((c) => c.runId);
      expect(claimed.sort()).toEqual([...deadRuns].sort());
      for (const id of [...aliveRuns, ...unregisteredRuns]) expect(claimed).not.toContain(id);
      await alive.session.end();
    });

    it("lets one session hold an instance's presence, and never has a sweeper take its own runs", async () => {
      const first = await presentProcess("instance-twice");
      const second = await presentProcess("instance-twice");
      expect(first.held).toBe(true);
      // Another session cannot take the lock: that instance stays judged by its leases.
      expect(second.held).toBe(false);
      // Registering again on the session that holds it (every heartbeat does) still holds.
      const [{ held }] = await first.session<
        { held: boolean }[]
      >`select vigil_register_instance('instance-twice') as held`;
      expect(held).toBe(true);
      await second.session.end();
      await first.session.end();
      await waitUntilGone("instance-twice");
      const own = await insertRuns("instance-twice", 2);
      // Its own sweep (after a lost presence connection) leaves them; another instance takes them.
      // (Runs of the previous test's instances, gone by now, may be claimed by either.)
      const byItself = (await claimStaleRuns("instance-twice", 100)).map((c) => c.runId);
      expect(byItself.filter((id) => own.includes(id))).toEqual([]);
      const byOther = (await claimStaleRuns("other", 100)).map((c) => c.runId);
      expect(byOther.filter((id) => own.includes(id)).sort()).toEqual([...own].sort());
    });
  });
} else {
  describe("instance presence on postgres", () => {
    it("claims the runs of a registered instance whose session ended, before their leases run out", () => {
      throw new Error(
        "TEST_DATABASE_URL is not set: presence is a server PostgreSQL's (e.g. TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres).",
      );
    });
  });
}
