import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase, rowsOf } from "@/lib/db";
import { type TestDatabase, testTargets } from "../support/databases";

// A frozen instance (SIGSTOP, a paused VM) must not hold a run's row lock past its lease: the
// server cuts its idle transaction. The timeouts are startup parameters of every pooled
// connection, so they are checked on a server database only.
const server = testTargets().find((t) => t.name === "postgres");

describe("connection timeouts on postgres", { timeout: 120_000 }, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    if (!server) throw new Error("this suite needs a PostgreSQL server: set TEST_DATABASE_URL");
    database = await server.open();
  });
  afterAll(async () => {
    await database?.close();
  });

  async function setting(db: Database, name: string): Promise<string> {
    const rows = rowsOf<Record<string, string>>(await db.db.execute(sql.raw(`show ${name}`)));
    return Object.values(rows[0])[0];
  }

  it("starts every pooled connection with the idle-in-transaction, lock and statement timeouts", async () => {
    expect(await setting(database, "idle_in_transaction_session_timeout")).toBe("15s");
    expect(await setting(database, "lock_timeout")).toBe("10s");
    expect(await setting(database, "statement_timeout")).toBe("1min");
    // A tenant transaction's reserved connection carries them too.
    const connection = await (database.reserve as NonNullable<Database["reserve"]>)();
    try {
      const [row] = await connection.unsafe("show lock_timeout");
      expect(Object.values(row)[0]).toBe("10s");
    } finally {
      connection.release();
    }
  });

  it("terminates a session left idle in a transaction, releasing its locks for another instance", async () => {
    const before = process.env.VIGIL_DB_IDLE_IN_TRANSACTION_TIMEOUT_MS;
    process.env.VIGIL_DB_IDLE_IN_TRANSACTION_TIMEOUT_MS = "500";
    let frozen: Database;
    try {
      frozen = await openDatabase({ url: database.url as string });
    } finally {
      if (before === undefined) delete process.env.VIGIL_DB_IDLE_IN_TRANSACTION_TIMEOUT_MS;
      else process.env.VIGIL_DB_IDLE_IN_TRANSACTION_TIMEOUT_MS = before;
    }
    expect(await setting(frozen, "idle_in_transaction_session_timeout")).toBe("500ms");
    const connection = await (frozen.reserve as NonNullable<Database["reserve"]>)();
    await connection.unsafe("begin");
    // A lock held until the commit, as an execution holds its run row while it writes.
    await connection.unsafe("select pg_advisory_xact_lock(4242)");
    const [{ pid }] = await connection.unsafe("select pg_backend_pid() as pid");
    // Then the process freezes: nothing more is sent. Wait for the server to end the session.
    const deadline = Date.now() + 60_000;
    for (;;) {
      const rows = rowsOf(await database.db.execute(sql`select 1 from pg_stat_activity where pid = ${pid}`));
      if (rows.length === 0) break;
      if (Date.now() > deadline) throw new Error("the idle transaction was never cut");
      await new Promise((r) => setTimeout(r, 100));
    }
    // Its lock is free for another session at once, and the frozen session's next statement fails.
    const [free] = rowsOf<{ got: boolean }>(await database.db.execute(sql`select pg_try_advisory_lock(4242) as got`));
    expect(free.got).toBe(true);
    await database.db.execute(sql`select pg_advisory_unlock(4242)`);
    await expect(connection.unsafe("select 1")).rejects.toThrow();
    connection.release();
    await frozen.close();
  });
});
