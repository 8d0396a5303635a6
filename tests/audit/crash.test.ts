import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf, schema, setActiveDatabase } from "@/lib/db";
import { sequenceTrace, verifyChain } from "@/lib/trace";
import { type TestDatabase, testTargets } from "../support/databases";
import { compiledScript } from "../support/scripts";

// An embedded PGlite data folder cannot be shared by processes: these run on the server only.
const server = testTargets().find((t) => t.name === "postgres");

interface Worker {
  tag: string;
  child: ChildProcess;
  /** The last commit the worker reported (-1: none). */
  lastReported: number;
  ready: Promise<void>;
  exited: Promise<void>;
}

/** Node's arguments for tests/audit/trace-worker.ts, compiled once per run; set before the tests. */
let traceWorker: string[] = [];

function startWorker(url: string, tenantId: string, tag: string, limit?: number): Worker {
  const child = spawn(process.execPath, [...traceWorker, tenantId, tag, ...(limit ? [String(limit)] : [])], {
    env: { ...process.env, DATABASE_URL: url, VIGIL_TRACE_SEQUENCE_MS: "25" },
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group, so SIGKILL reaches whatever the worker starts too.
    detached: true,
  });
  const worker = { tag, child, lastReported: -1 } as Worker;
  let stderr = "";
  child.stderr?.on("data", (d) => {
    stderr += d;
  });
  worker.exited = new Promise((resolve) => child.on("exit", () => resolve()));
  worker.ready = new Promise((resolve, reject) => {
    let pending = "";
    child.stdout?.on("data", (d) => {
      pending += d;
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        const message = JSON.parse(line) as { ready?: boolean; committed?: number };
        if (message.ready) resolve();
        if (message.committed !== undefined) worker.lastReported = message.committed;
      }
    });
    child.on("exit", (code, signal) => {
      if (signal !== "SIGKILL" && code !== 0) reject(new Error(`worker ${tag} exited ${code}: ${stderr.slice(-2000)}`));
      resolve();
    });
  });
  return worker;
}

function kill9(worker: Worker): Promise<void> {
  // The whole process group, the hard way.
  process.kill(-(worker.child.pid as number), "SIGKILL");
  return worker.exited;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// Processes cannot share one embedded database, so this suite needs the server database (CI
// always has one). Without one it fails, saying so, rather than vanishing from the report.
describe("trace outbox across processes on postgres", () => {
  let database: TestDatabase;
  let tenantId: string;
  const workers: Worker[] = [];

  beforeAll(async () => {
    if (!server) throw new Error("this suite needs a PostgreSQL server: set TEST_DATABASE_URL");
    [database, traceWorker] = await Promise.all([server.open(), compiledScript("tests/audit/trace-worker.ts")]);
    setActiveDatabase(database);
    const [tenant] = await database.db
      .insert(schema.tenants)
      .values({ slug: `trace-${randomBytes(4).toString("hex")}`, name: "Trace crash" })
      .returning();
    tenantId = tenant.id;
  });

  afterAll(async () => {
    for (const worker of workers) if (worker.child.exitCode === null && !worker.child.signalCode) await kill9(worker);
    setActiveDatabase(undefined);
    await database?.close();
  });

  /** Per marker, how many of its events the chain holds. */
  async function chainedMarkers(): Promise<Map<string, number>> {
    const result = await database.db.execute(
      sql`select event_data->>'marker' as marker, count(*)::int as n from execution_trace
          where tenant_id = ${tenantId} group by 1`,
    );
    return new Map(rowsOf<{ marker: string; n: number }>(result).map((r) => [r.marker, r.n]));
  }

  /** The commits of a worker that reached the chain: a prefix of its loop, each with both events once. */
  function committedPrefix(markers: Map<string, number>, tag: string): number {
    let count = 0;
    while (markers.has(`${tag}:${count}`)) {
      expect(markers.get(`${tag}:${count}`), `${tag}:${count}`).toBe(2);
      count += 1;
    }
    const stray = [...markers.keys()].filter((m) => m.startsWith(`${tag}:`) && Number(m.split(":")[1]) >= count);
    expect(stray, `${tag} markers after a gap`).toEqual([]);
    return count;
  }

  it("chains two processes writing and sequencing one tenant at once, completely", async () => {
    const pair = ["steady-a", "steady-b"].map((tag) => startWorker(database.url as string, tenantId, tag, 40));
    workers.push(...pair);
    await Promise.all(pair.map((w) => w.ready));
    await Promise.all(pair.map((w) => w.exited));
    expect(pair.map((w) => w.child.exitCode)).toEqual([0, 0]);
    const markers = await chainedMarkers();
    for (const worker of pair) expect(committedPrefix(markers, worker.tag)).toBe(40);
    expect(await verifyChain({ tenantId })).toMatchObject({ status: "ok", checked: 160, pending: 0 });
  }, 120_000);

  it("loses and duplicates no committed event when processes are killed with SIGKILL at random moments", async () => {
    const rounds: Worker[][] = [];
    for (let round = 0; round < 5; round++) {
      const pair = ["a", "b"].map((name) => startWorker(database.url as string, tenantId, `crash${round}${name}`));
      workers.push(...pair);
      rounds.push(pair);
      await Promise.all(pair.map((w) => w.ready));
      // Each dies at its own moment: mid-commit, mid-sequencing or in between.
      await Promise.all(
        pair.map(async (w) => {
          await sleep(50 + Math.random() * 700);
          await kill9(w);
        }),
      );
    }

    // A kill never leaves half a batch in the chain; what was committed but not chained yet is
    // still in the outbox, and one more pass chains it.
    expect(await verifyChain({ tenantId })).toMatchObject({ status: "ok" });
    await sequenceTrace();
    const markers = await chainedMarkers();
    let expected = 160;
    for (const worker of rounds.flat()) {
      const committed = committedPrefix(markers, worker.tag);
      // A commit can land just before the kill and never be reported.
      expect(committed, worker.tag).toBeGreaterThanOrEqual(worker.lastReported + 1);
      expect(committed, worker.tag).toBeLessThanOrEqual(worker.lastReported + 2);
      expected += committed * 2;
    }
    expect(rounds.flat().some((w) => w.lastReported >= 0)).toBe(true);
    expect(await verifyChain({ tenantId })).toMatchObject({ status: "ok", checked: expected, pending: 0 });
  }, 180_000);
});
