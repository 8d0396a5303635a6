import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { cp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pgcrypto } from "@electric-sql/pglite/contrib/pgcrypto";
import { vector } from "@electric-sql/pglite-pgvector";
import canonicalize from "canonicalize";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase, rowsOf, setActiveDatabase } from "@/lib/db";
import { GENESIS_HASH, recordTrace, sequenceTrace, verifyChain } from "@/lib/trace";
import { dbErrorOf } from "../support/errors";

const BEFORE = "0015_runs_one_running_per_thread";

/** The migrations up to the one before the outbox, in a folder of their own. */
async function migrationsBefore(dir: string): Promise<string> {
  const folder = path.join(dir, "migrations");
  await mkdir(path.join(folder, "meta"), { recursive: true });
  const journal = JSON.parse(await readFile("drizzle/meta/_journal.json", "utf8")) as {
    entries: { idx: number; tag: string }[];
  };
  const last = journal.entries.findIndex((e) => e.tag === BEFORE);
  journal.entries = journal.entries.slice(0, last + 1);
  for (const entry of journal.entries) await cp(`drizzle/${entry.tag}.sql`, path.join(folder, `${entry.tag}.sql`));
  await writeFile(path.join(folder, "meta", "_journal.json"), JSON.stringify(journal));
  return folder;
}

/** The hash the buffered writer gave a row, exactly as it computed it before migration 0016. */
function oldWriterHash(prevHash: string, event: Record<string, unknown> & { occurredAt: Date }): string {
  const canonical = canonicalize({
    tenantId: event.tenantId,
    seq: event.seq,
    eventType: event.eventType,
    runId: event.runId,
    node: event.node,
    actorId: event.actorId,
    durationMs: event.durationMs,
    payload: event.payload,
    occurredAt: event.occurredAt.getTime(),
  });
  return createHash("sha256")
    .update(prevHash + (canonical ?? ""))
    .digest("hex");
}

type Execute = (query: ReturnType<typeof sql>) => Promise<unknown>;

/** A tenant and a chain of three rows, written in the columns the trace had before. */
async function writeOldChain(execute: Execute): Promise<string> {
  const tenantId = rowsOf<{ id: string }>(
    await execute(sql`insert into tenants (slug, name) values ('old-trace', 'Old trace') returning id`),
  )[0].id;
  let prevHash = GENESIS_HASH;
  for (let seq = 1; seq <= 3; seq++) {
    const event = {
      tenantId,
      seq,
      eventType: ["run_start", "node_complete", "run_complete"][seq - 1],
      runId: null,
      node: seq === 2 ? "respond" : null,
      actorId: "user-1",
      durationMs: seq === 2 ? 42 : null,
      payload: { seq, text: "héllo" },
      occurredAt: new Date(Date.UTC(2025, 5, 1, 12, 0, seq, 250)),
    };
    const hash = oldWriterHash(prevHash, event);
    await execute(
      sql`insert into execution_trace
          (tenant_id, seq, run_id, event_type, node, actor_id, duration_ms, payload, occurred_at, prev_hash, hash)
          values (${tenantId}, ${seq}, null, ${event.eventType}, ${event.node}, ${event.actorId}, ${event.durationMs},
                  ${JSON.stringify(event.payload)}::jsonb, ${event.occurredAt.toISOString()}, ${prevHash}, ${hash})`,
    );
    prevHash = hash;
  }
  return tenantId;
}

interface Place {
  name: string;
  /** Migrates a new database up to 0015, writes the old chain, and lets go of it. */
  prepare(folder: string): Promise<string>;
  /** Opens it the usual way, which applies 0016. */
  open(): Promise<Database>;
  cleanup(): Promise<void>;
}

function places(dir: string): Place[] {
  const dataDir = path.join(dir, "pglite");
  const list: Place[] = [
    {
      name: "pglite",
      async prepare(folder) {
        const client = await PGlite.create(dataDir, { extensions: { vector, pgcrypto } });
        const db = drizzlePglite(client);
        await migratePglite(db, { migrationsFolder: folder });
        const tenantId = await writeOldChain((q) => db.execute(q));
        await client.close();
        return tenantId;
      },
      open: () => openDatabase({ dataDir }),
      cleanup: async () => {},
    },
  ];
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const name = `vigil_test_${randomBytes(6).toString("hex")}`;
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const admin = (statement: string) => {
      const client = postgres(serverUrl, { max: 1, onnotice: () => {} });
      return client.unsafe(statement).finally(() => client.end());
    };
    list.push({
      name: "postgres",
      async prepare(folder) {
        await admin(`create database ${name}`);
        const client = postgres(url.toString(), { max: 1, onnotice: () => {} });
        try {
          const db = drizzlePostgres(client);
          await migratePostgres(db, { migrationsFolder: folder });
          return await writeOldChain((q) => db.execute(q));
        } finally {
          await client.end();
        }
      },
      open: () => openDatabase({ url: url.toString() }),
      cleanup: async () => {
        await admin(`drop database if exists ${name} with (force)`);
      },
    });
  }
  return list;
}

describe("migration 0016 on a database that already has a trace", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "vigil-trace-migration-"));
  afterAll(() => rm(dir, { recursive: true, force: true }));

  for (const place of places(dir)) {
    describe(`on ${place.name}`, () => {
      let database: Database;
      let tenantId: string;
      beforeAll(async () => {
        tenantId = await place.prepare(await migrationsBefore(dir));
        database = await place.open();
        setActiveDatabase(database);
      });
      afterAll(async () => {
        setActiveDatabase(undefined);
        await database?.close();
        await place.cleanup();
      });

      it("keeps the old rows verifying as version 1, with the new columns' defaults", async () => {
        const rows = rowsOf<Record<string, unknown>>(
          await database.db.execute(
            sql`select trace_id, hash_version, node_name, event_data, event_duration_ms, event_success, phi_accessed,
                       metadata, event_timestamp from execution_trace where tenant_id = ${tenantId} order by seq`,
          ),
        );
        expect(rows).toHaveLength(3);
        expect(new Set(rows.map((r) => r.trace_id)).size).toBe(3);
        expect(rows[1]).toMatchObject({
          hash_version: 1,
          node_name: "respond",
          event_data: { seq: 2, text: "héllo" },
          event_duration_ms: 42,
          event_success: true,
          phi_accessed: false,
          metadata: {},
        });
        expect(await verifyChain({ tenantId })).toMatchObject({ status: "ok", checked: 3, pending: 0 });
      });

      it("chains new events after them in version 2", async () => {
        await recordTrace({ tenantId }, [{ eventType: "run_interrupted", sessionId: "thread-1", tokensUsed: 7 }]);
        expect(await sequenceTrace(tenantId)).toBe(1);
        expect(await verifyChain({ tenantId })).toMatchObject({ status: "ok", checked: 4, pending: 0 });
      });

      it("keeps the trace append-only under its new column names", async () => {
        expect(await dbErrorOf(database.db.execute(sql`update execution_trace set node_name = 'x'`))).toMatch(
          /append-only/,
        );
        expect(await dbErrorOf(database.db.execute(sql`delete from execution_trace`))).toMatch(/append-only/);
      });
    });
  }
});
