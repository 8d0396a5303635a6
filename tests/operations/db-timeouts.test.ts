import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase, rowsOf } from "@/lib/db";
import { route } from "@/lib/http";
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

  /** A database whose app connections start with these timeout settings (the environment as boot reads it). */
  async function openWith(settings: Record<string, string>): Promise<Database> {
    const before = Object.fromEntries(Object.keys(settings).map((k) => [k, process.env[k]]));
    Object.assign(process.env, settings);
    try {
      return await openDatabase({ url: database.url as string });
    } finally {
      for (const [k, v] of Object.entries(before)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  }

  it("answers a statement stopped by statement_timeout with 503 DATABASE_BUSY, not 500", async () => {
    const slow = await openWith({ VIGIL_DB_STATEMENT_TIMEOUT_MS: "200" });
    try {
      const handler = route(async () => {
        await slow.db.execute(sql`select pg_sleep(2)`);
        return new Response("finished");
      });
      const started = Date.now();
      const response = await handler(new Request("http://localhost/api/anything"), {});
      expect(Date.now() - started).toBeLessThan(1500);
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe("2");
      expect(await response.json()).toEqual({
        status: "error",
        code: "DATABASE_BUSY",
        message: "The database took too long to answer; try again shortly.",
      });
      // The same pool answers the next statement: the timeout stopped one statement only.
      expect(rowsOf<{ one: number }>(await slow.db.execute(sql`select 1 as one`))[0].one).toBe(1);
    } finally {
      await slow.close();
    }
  });

  it("answers a statement that waited past lock_timeout with 503 DATABASE_BUSY", async () => {
    const impatient = await openWith({ VIGIL_DB_LOCK_TIMEOUT_MS: "200" });
    const holder = await (database.reserve as NonNullable<Database["reserve"]>)();
    try {
      await holder.unsafe("begin");
      await holder.unsafe("select pg_advisory_xact_lock(4343)");
      const handler = route(async () => {
        await impatient.db.execute(sql`select pg_advisory_xact_lock(4343)`);
        return new Response("locked");
      });
      const response = await handler(new Request("http://localhost/api/anything"), {});
      expect(response.status).toBe(503);
      expect((await response.json()).code).toBe("DATABASE_BUSY");
    } finally {
      await holder.unsafe("rollback");
      holder.release();
      await impatient.close();
    }
  });

  it("still answers 500 for a statement that is simply wrong", async () => {
    const handler = route(async () => {
      await database.db.execute(sql`select 1 / 0`);
      return new Response("divided");
    });
    const response = await handler(new Request("http://localhost/api/anything"), {});
    expect(response.status).toBe(500);
    expect((await response.json()).code).toBe("INTERNAL");
  });
});
