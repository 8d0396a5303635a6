import { sql } from "drizzle-orm";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { rowsOf, schema } from "@/lib/db";
import { claimStaleRuns, leaseMs, msToNextLeaseExpiry, releaseRuns, releaseUnlockedRuns, renewLease } from "@/lib/runs";
import { testTargets } from "../support/databases";
import { seededDatabase } from "../support/seeded";

for (const target of testTargets()) {
  describe(`run leases on ${target.name}`, () => {
    const suite = seededDatabase(target);

    async function insertRuns(count: number, leaseOffsetMs: number, tenantId: string) {
      const rows = await suite.database.db
        .insert(schema.runs)
        .values(
          Array.from({ length: count }, (_, i) => ({
            tenantId,
            workflow: "demo-echo",
            threadId: `lease-${leaseOffsetMs}-${i}-${Math.random()}`,
            createdBy: "t",
            status: "running" as const,
            leaseOwner: "some-process",
            leaseExpiresAt: new Date(Date.now() + leaseOffsetMs),
          })),
        )
        .returning({ id: schema.runs.id });
      return rows.map((r) => r.id);
    }

    it("hands each orphaned run to exactly one of several concurrent sweepers, across tenants", async () => {
      const orphans = [
        ...(await insertRuns(15, -60_000, suite.tenants.demo)),
        ...(await insertRuns(15, -60_000, suite.tenants.acme)),
      ];
      const alive = await insertRuns(5, 60_000, suite.tenants.demo);
      const claims = await Promise.all(["a", "b", "c", "d"].map((owner) => claimStaleRuns(`sweeper-${owner}`, 100)));
      const claimed = claims.flat().map((c) => c.runId);
      expect(new Set(claimed).size).toBe(claimed.length);
      expect(claimed.sort()).toEqual([...orphans].sort());
      for (const id of alive) expect(claimed).not.toContain(id);
      // A second sweep finds nothing: the claims hold fresh leases now.
      expect(await claimStaleRuns("sweeper-e", 100)).toEqual([]);
    });

    it("renews a lease only for its holder", async () => {
      const [id] = await insertRuns(1, 60_000, suite.tenants.demo);
      expect(await renewLease({ tenantId: suite.tenants.demo }, id, "some-process")).toBe(true);
      expect(await renewLease({ tenantId: suite.tenants.demo }, id, "intruder")).toBe(false);
      expect(await renewLease({ tenantId: suite.tenants.acme }, id, "some-process")).toBe(false);
    });

    it("releases the runs of a stopping process in one statement, across tenants, and only its own", async () => {
      const mine = [
        ...(await insertRuns(3, 60_000, suite.tenants.demo)),
        ...(await insertRuns(2, 60_000, suite.tenants.acme)),
      ];
      const released = await releaseRuns("some-process", mine);
      expect(released.sort()).toEqual([...mine].sort());
      // Released runs are claimable at once; a process cannot release runs it does not hold.
      expect(await releaseRuns("intruder", mine)).toEqual([]);
      const claimed = (await claimStaleRuns("successor", 100)).map((c) => c.runId);
      expect(claimed.sort()).toEqual([...mine].sort());
    });

    // Two sessions at once: a server database only (an embedded one has a single connection).
    if (target.name === "postgres")
      it("a shutdown's first release skips a run a write in flight holds locked, and raises the others' fences", async () => {
        const mine = await insertRuns(3, 60_000, suite.tenants.demo);
        const fences = async () =>
          new Map(
            (
              await suite.database.db
                .select({ id: schema.runs.id, fence: schema.runs.fenceToken })
                .from(schema.runs)
                .where(sql`${schema.runs.id} = any(${`{${mine.join(",")}}`}::uuid[])`)
            ).map((row) => [row.id, row.fence]),
          );
        const before = await fences();
        // Another session writing an event of the first run: its row is locked until it commits.
        const writer = postgres(suite.database.url as string, { max: 1, onnotice: () => {} });
        try {
          const written = writer.begin(async (tx) => {
            await tx`update runs set last_seq = last_seq + 1 where id = ${mine[0]}`;
            const released = await releaseUnlockedRuns("some-process", mine);
            expect(released.sort()).toEqual(mine.slice(1).sort());
          });
          await written;
        } finally {
          await writer.end();
        }
        const between = await fences();
        expect(between.get(mine[0])).toBe(before.get(mine[0]));
        for (const id of mine.slice(1)) expect(between.get(id)).toBe((before.get(id) as number) + 1);
        // Once the write committed, the skipped run is released like any other.
        expect(await releaseRuns("some-process", mine)).toEqual([mine[0]]);
        expect((await fences()).get(mine[0])).toBe((before.get(mine[0]) as number) + 1);
      });

    // A writer of another session, paused (SIGSTOP) inside its fenced transaction: a takeover
    // must not wait for the server to cut it, and what it wrote must never commit.
    if (target.name === "postgres")
      describe("a writer paused inside its transaction", () => {
        const tokenOf = async (id: string) =>
          (
            await suite.database.db
              .select({ fence: schema.runs.fenceToken })
              .from(schema.runs)
              .where(sql`${schema.runs.id} = ${id}`)
          )[0].fence;
        const eventsOf = async (id: string) =>
          rowsOf<{ n: number }>(
            await suite.database.db.execute(sql`select count(*)::int as n from run_events where run_id = ${id}`),
          )[0].n;

        /** The run's first event, as an execution writes it inside its transaction. */
        const writeEvent = (tx: postgres.TransactionSql, id: string) =>
          tx`insert into run_events (tenant_id, run_id, seq, type, payload)
            values (${suite.tenants.demo}, ${id}, 1, 'text', '{}'::jsonb)`;

        /** Opens a transaction on another connection, runs `write` in it and holds it open. */
        function holdOpen(write: (tx: postgres.TransactionSql) => Promise<unknown>) {
          const writer = postgres(suite.database.url as string, { max: 1, onnotice: () => {} });
          let release = () => {};
          const held = new Promise<void>((resolve) => {
            release = resolve;
          });
          let opened = () => {};
          const open = new Promise<void>((resolve) => {
            opened = resolve;
          });
          const committed = writer.begin(async (tx) => {
            await write(tx);
            opened();
            await held;
          });
          // Failing before it was held open (a refused check) fails the test at `open`.
          committed.catch(() => opened());
          return { open, committed, release, end: () => writer.end({ timeout: 1 }) };
        }

        it("a claim takes a run whose checkpoint save is open at once, and the save's commit is refused", async () => {
          const [id] = await insertRuns(1, -60_000, suite.tenants.demo);
          const token = await tokenOf(id);
          const save = holdOpen(async (tx) => {
            await tx`select vigil_fence_check(${id}::uuid, ${token}::integer)`;
            await writeEvent(tx, id);
          });
          try {
            await save.open;
            const started = Date.now();
            const claimed = (await claimStaleRuns("successor", 100)).map((c) => c.runId);
            expect(claimed).toContain(id);
            expect(Date.now() - started).toBeLessThan(1000);
            expect(await tokenOf(id)).toBe(token + 1);
            save.release();
            await expect(save.committed).rejects.toMatchObject({ code: "VF409" });
            expect(await eventsOf(id)).toBe(0);
          } finally {
            save.release();
            await save.end();
          }
        });

        it("a claim ends a session paused inside an event write on a lapsed run, and takes the run", async () => {
          const [id] = await insertRuns(1, -60_000, suite.tenants.demo);
          const token = await tokenOf(id);
          // An event write allocates its sequence numbers on the run row and holds it.
          const write = holdOpen(async (tx) => {
            await tx`update runs set last_seq = last_seq + 1 where id = ${id} and fence_token = ${token}`;
            await writeEvent(tx, id);
          });
          try {
            await write.open;
            // Paused for longer than a quarter of the lease (the default lease, 4 s).
            await new Promise((r) => setTimeout(r, leaseMs() / 4 + 300));
            const claimed = (await claimStaleRuns("successor", 100)).map((c) => c.runId);
            expect(claimed).toContain(id);
            expect(await tokenOf(id)).toBe(token + 1);
            write.release();
            await expect(write.committed).rejects.toBeDefined();
            expect(await eventsOf(id)).toBe(0);
          } finally {
            write.release();
            await write.end();
          }
        });

        it("a claim leaves alone a session briefly between the statements of a write", async () => {
          const [id] = await insertRuns(1, -60_000, suite.tenants.demo);
          const token = await tokenOf(id);
          const write = holdOpen(async (tx) => {
            await tx`update runs set last_seq = last_seq + 1 where id = ${id} and fence_token = ${token}`;
          });
          try {
            await write.open;
            expect((await claimStaleRuns("successor", 100)).map((c) => c.runId)).not.toContain(id);
            write.release();
            await write.committed;
            expect((await claimStaleRuns("successor", 100)).map((c) => c.runId)).toContain(id);
          } finally {
            write.release();
            await write.end();
          }
        });
      });

    it("tells the sweep how long until the next lease runs out", async () => {
      // Only the leases inserted here are live (earlier runs of the suite end first); one that
      // ran out already is the sweep's to claim now, not a moment to wait for.
      await suite.database.db.execute(sql`update runs set status = 'completed' where status = 'running'`);
      await insertRuns(1, -5000, suite.tenants.demo);
      expect(await msToNextLeaseExpiry()).toBeNull();
      await insertRuns(1, 1500, suite.tenants.demo);
      await insertRuns(1, 30_000, suite.tenants.acme);
      const ms = await msToNextLeaseExpiry();
      expect(ms).not.toBeNull();
      expect(ms as number).toBeGreaterThan(500);
      expect(ms as number).toBeLessThanOrEqual(1500);
    });
  });
}
