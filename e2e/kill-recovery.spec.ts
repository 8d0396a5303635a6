import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { type Database, openDatabase, rowsOf, setActiveDatabase } from "@/lib/db";
import { seedDemo } from "@/lib/demo";
import { verifyChain } from "@/lib/trace";
import { expect, test } from "./fixtures";
import { specServerPort } from "./ports";
import { api as apiAt, killServer, listening, type ServerProcess, signInAt, startServer } from "./server-process";

// The server is killed with SIGKILL at random moments while 20 runs stream, wait for approval
// and get decided. After restarts and recovery every run completes, and its trace is whole:
// each node execution that started ended, each stop for a person was answered, nothing twice,
// and the chain verifies.

const PORT = specServerPort(1);
const BASE = `http://127.0.0.1:${PORT}`;
const RUNS = 20;
const KILLS = 3;
const SECRET = "kill-test-secret-kill-test-secret-kill";
const api = (cookie: string, path: string, body?: unknown) => apiAt(BASE, cookie, path, body);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The database the killed server uses: a fresh server database when there is one, else an embedded folder. */
async function freshDatabase(): Promise<{
  env: Record<string, string>;
  open(): Promise<Database>;
  drop(): Promise<void>;
}> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const dataDir = ".data/e2e-kill";
    rmSync(dataDir, { recursive: true, force: true });
    return {
      env: { VIGIL_DATA_DIR: dataDir },
      open: () => openDatabase({ dataDir }),
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `vigil_e2e_kill_${randomBytes(5).toString("hex")}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const seeded = await openDatabase({ url: url.toString() });
  await seedDemo(seeded, { force: true });
  await seeded.close();
  return {
    env: { DATABASE_URL: url.toString() },
    open: () => openDatabase({ url: url.toString() }),
    drop: async () => {
      const dropper = postgres(serverUrl, { max: 1, onnotice: () => {} });
      await dropper.unsafe(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

test("kill -9 at random moments during 20 runs: after recovery every trace is whole and verifies", async () => {
  test.setTimeout(420_000);
  const database = await freshDatabase();
  const env = {
    ...database.env,
    BETTER_AUTH_SECRET: SECRET,
    // A server deployment refuses to start without its data-source key.
    VIGIL_DATASOURCE_KEY: "6154a61dc0208b593df01360332f6f681345981eac84c0a00b84aaddf9a443f0",
    VIGIL_RUN_LEASE_MS: "5000",
    VIGIL_HITL_SWEEP_MS: "1000",
  };
  let server: ServerProcess = startServer(PORT, env);
  try {
    await listening(server);
    const member = await signInAt(BASE, "expert@demo.local");
    const reviewer = await signInAt(BASE, "reviewer@demo.local");
    const admin = await signInAt(BASE, "admin@demo.local");

    const runIds: string[] = [];
    for (let i = 0; i < RUNS; i++) {
      const started = await api(member, "/api/runs", {
        workflow: "demo-echo",
        input: {
          message: `run ${i} streams these words slowly so a kill lands mid answer`,
          requireApproval: i % 4 !== 3,
          delayMs: 60,
        },
      });
      expect(started.status).toBe(202);
      runIds.push(started.body.runId as string);
    }

    /** Decides every waiting plan approval; a retry after a kill replays by request id. */
    const decideWaiting = async () => {
      const queue = await api(reviewer, "/api/hitl/queue?adapter_id=plan_approval&limit=100");
      for (const item of (queue.body.items ?? []) as { id: string }[]) {
        await api(reviewer, `/api/hitl/cases/${item.id}/decision`, {
          request_id: `kill-${item.id}`,
          decision: "approved",
        });
      }
    };

    const statusesNow = () =>
      Promise.all(
        runIds.map(async (id) => ((await api(member, `/api/runs/${id}`)).body.run as { status: string }).status),
      );
    // How many runs were executing when a kill landed: the test means nothing if none were.
    let runningAtKills = 0;
    for (let kill = 0; kill < KILLS; kill++) {
      // Decisions resume waiting runs, which then stream their answers; the kill lands while
      // they (and runs still starting or recovering) are at work.
      if (kill > 0) await decideWaiting();
      await sleep(100 + Math.floor(Math.random() * 300));
      runningAtKills += (await statusesNow()).filter((status) => status === "running").length;
      await killServer(server);
      server = startServer(PORT, env);
      await listening(server);
    }
    expect(runningAtKills).toBeGreaterThan(0);
    // Recovery and the remaining decisions bring every run to its end.
    const deadline = Date.now() + 240_000;
    for (;;) {
      await decideWaiting();
      const statuses = await statusesNow();
      if (statuses.every((s) => s === "completed")) break;
      expect(statuses.filter((s) => s === "failed" || s === "cancelled")).toEqual([]);
      if (Date.now() > deadline) throw new Error(`runs did not finish: ${statuses.join(", ")}`);
      await sleep(500);
    }
    // Give the sequencer a moment, then ask the product itself.
    await sleep(1500);
    const verified = await api(admin, "/api/audit/verify", {});
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ status: "ok" });
  } finally {
    await killServer(server);
  }

  // The record, read directly once nothing else holds the database.
  const db = await database.open();
  try {
    setActiveDatabase(db);
    for (const runId of await runsOf(db)) {
      const rows = rowsOf<{ trace_id: string; event_type: string; node_name: string | null }>(
        await db.db.execute(
          sql`select trace_id, event_type, node_name from (
                select trace_id, event_type, node_name, seq, 0 as pending from execution_trace where run_id = ${runId}
                union all
                select trace_id, event_type, node_name, null, 1 from execution_trace_outbox where run_id = ${runId}) t
              order by pending, seq`,
        ),
      );
      const story = rows.map((r) => `${r.event_type}${r.node_name ? `:${r.node_name}` : ""}`).join(" ");
      const count = (type: string, node?: string | null) =>
        rows.filter((r) => r.event_type === type && (node === undefined || r.node_name === node)).length;
      expect(new Set(rows.map((r) => r.trace_id)).size, `${runId}: no event twice`).toBe(rows.length);
      expect(count("run_start"), runId).toBe(1);
      expect(count("run_complete"), runId).toBe(1);
      for (const node of ["prepare", "approve", "respond"]) {
        expect(count("node_start", node), `${runId} ${node} started`).toBeGreaterThanOrEqual(1);
        expect(
          count("node_complete", node) + count("node_error", node) + count("hitl_request", node),
          `${runId} ${node}: every start ended: ${story}`,
        ).toBe(count("node_start", node));
        // Exactly once: the end commits with the node's result, and before the checkpoint holding it.
        expect(count("node_complete", node), `${runId} ${node} completed once: ${story}`).toBe(1);
      }
      expect(count("hitl_response"), `${runId}: every stop answered`).toBe(count("hitl_request"));
      const seqs = rowsOf<{ seq: number }>(
        await db.db.execute(sql`select seq from run_events where run_id = ${runId} order by seq`),
      ).map((r) => Number(r.seq));
      expect(seqs, `${runId}: run events without gaps`).toEqual(seqs.map((_, i) => i + 1));
    }
    const [tenant] = rowsOf<{ id: string }>(await db.db.execute(sql`select id from tenants where slug = 'demo'`));
    expect(await verifyChain({ tenantId: tenant.id })).toMatchObject({ status: "ok" });
  } finally {
    setActiveDatabase(undefined);
    await db.close();
    await database.drop();
  }
});

async function runsOf(db: Database): Promise<string[]> {
  const rows = rowsOf<{ id: string; status: string }>(
    await db.db.execute(sql`select id, status from runs where workflow = 'demo-echo'`),
  );
  expect(rows).toHaveLength(RUNS);
  expect(rows.every((r) => r.status === "completed")).toBe(true);
  return rows.map((r) => r.id);
}
