import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase, rowsOf } from "@/lib/db";
import { type TestDatabase, testTargets } from "../support/databases";
import { sparePort } from "../support/throwaway-cluster";

// Vigil behind PgBouncer in session mode, the pooler docs/operations.md recommends: PgBouncer
// refuses the connection timeouts as startup parameters, so the pool connects without them and
// sets them on each connection it hands out; the presence lock (a session advisory lock) still
// ends the moment the instance's connection to the pooler closes, because PgBouncer resets the
// server session (DISCARD ALL) before handing it to anyone else.
const PGBOUNCER = "/usr/sbin/pgbouncer";
const server = testTargets().find((t) => t.name === "postgres");

async function untilAccepting(url: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const probe = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 2 });
    try {
      await probe`select 1`;
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 200));
    } finally {
      await probe.end({ timeout: 1 });
    }
  }
}

describe("behind PgBouncer in session mode", { timeout: 120_000 }, () => {
  let database: TestDatabase;
  let pooler: ChildProcess | undefined;
  let pooledUrl: string;
  let folder: string;
  let pooled: Database | undefined;
  let log = "";

  beforeAll(async () => {
    if (!server) throw new Error("this suite needs a PostgreSQL server: set TEST_DATABASE_URL");
    if (!existsSync(PGBOUNCER))
      throw new Error(`this suite needs PgBouncer at ${PGBOUNCER} (apt-get install pgbouncer)`);
    database = await server.open();
    const direct = new URL(database.url as string);
    const port = await sparePort();
    folder = mkdtempSync(path.join(tmpdir(), "vigil-pgbouncer-"));
    const user = decodeURIComponent(direct.username || "postgres");
    writeFileSync(path.join(folder, "users.txt"), `"${user}" ""\n`, { mode: 0o644 });
    writeFileSync(
      path.join(folder, "pgbouncer.ini"),
      [
        "[databases]",
        `* = host=${direct.hostname} port=${direct.port || 5432}`,
        "[pgbouncer]",
        "listen_addr = 127.0.0.1",
        `listen_port = ${port}`,
        "unix_socket_dir =",
        "auth_type = trust",
        `auth_file = ${path.join(folder, "users.txt")}`,
        "pool_mode = session",
        "max_client_conn = 200",
        "default_pool_size = 40",
        "",
      ].join("\n"),
      { mode: 0o644 },
    );
    // PgBouncer will not run as root; the machine's postgres account runs it then.
    const asRoot = process.getuid?.() === 0;
    pooler = spawn(PGBOUNCER, [...(asRoot ? ["-u", "postgres"] : []), path.join(folder, "pgbouncer.ini")], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    pooler.stdout?.on("data", (d) => (log += d));
    pooler.stderr?.on("data", (d) => (log += d));
    const url = new URL(direct);
    url.port = String(port);
    pooledUrl = url.toString();
    await untilAccepting(pooledUrl);
  });

  afterAll(async () => {
    await pooled?.close();
    pooler?.kill("SIGTERM");
    await database?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  async function shown(connection: postgres.ReservedSql, name: string): Promise<string> {
    const [row] = await connection.unsafe(`show ${name}`);
    return String(Object.values(row)[0]);
  }

  it("opens, migrates and serves, with the connection timeouts on every connection it hands out", async () => {
    pooled = await openDatabase({ url: pooledUrl });
    const rows = rowsOf<{ n: number }>(await pooled.db.execute(sql`select count(*)::int as n from tenants`));
    expect(rows[0].n).toBeGreaterThanOrEqual(0);
    // Several at once, so the pool opens more than one connection through the pooler.
    const reserve = pooled.reserve as NonNullable<Database["reserve"]>;
    const connections = await Promise.all([reserve(), reserve(), reserve()]);
    try {
      for (const connection of connections) {
        expect(await shown(connection, "idle_in_transaction_session_timeout")).toBe("15s");
        expect(await shown(connection, "lock_timeout")).toBe("10s");
        expect(await shown(connection, "statement_timeout")).toBe("1min");
      }
    } finally {
      for (const connection of connections) connection.release();
    }
    expect(log).not.toMatch(/FATAL/);
  });

  it("holds the presence lock while the instance lives and lets go the moment its connection closes", async () => {
    pooled ??= await openDatabase({ url: pooledUrl });
    const owner = `pooled-${process.pid}-${Date.now()}`;
    expect(await pooled.presence?.register(owner)).toBe(true);
    const present = async () =>
      rowsOf<{ present: boolean }>(
        await database.db.execute(
          sql`select vigil_instance_present(presence_key) as present from run_instances where owner = ${owner}`,
        ),
      )[0]?.present;
    expect(await present()).toBe(true);
    // The instance goes away: its connections to the pooler close, as a killed process's do.
    await pooled.close();
    pooled = undefined;
    const deadline = Date.now() + 5_000;
    while ((await present()) !== false) {
      if (Date.now() > deadline) throw new Error("the presence lock outlived its instance behind the pooler");
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await present()).toBe(false);
  });
});
