// `npm run bench:failover`: two worker processes (tests/support/run-worker.ts, booted as servers
// are) on one PostgreSQL database. One executes N runs; it is killed (kill -9) or stopped
// (SIGTERM) mid-stream; the other, a standby with its recovery sweep, continues them. Measured:
// the stall from the kill to each run's next event, events lost or written twice, and how soon
// a reader in another process sees an event, woken by LISTEN/NOTIFY or by its poll alone.
// Leases, heartbeats and sweeps keep their defaults (VIGIL_RUN_LEASE_MS etc. apply if set).

import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { openDatabase } from "@/lib/db";
import { heartbeatMs, leaseMs, type RunEvent, UIChunkAdapter } from "@/lib/runs";
import { fmt, machineRows, percentile } from "./support/machine";
import { createServerDatabase } from "./support/server-database";
import { benchTenant } from "./support/tenant";

const LEVELS = (process.env.BENCH_FAILOVER_RUNS ?? "20,100").split(",").map(Number);
// Long enough that a hundred runs are still answering when the last of them has started.
const WORDS = Number(process.env.BENCH_FAILOVER_WORDS ?? 250);
const DELAY_MS = Number(process.env.BENCH_FAILOVER_DELAY_MS ?? 150);
const MESSAGE = Array.from({ length: WORDS }, (_, i) => `word${i}`).join(" ");

interface Worker {
  child: ChildProcess;
  line: Promise<Record<string, unknown>>;
}

function worker(url: string, args: string[], env: Record<string, string> = {}): Worker {
  const child = spawn(
    "npx",
    ["tsx", "--import", "./scripts/server-only-node.mjs", "tests/support/run-worker.ts", ...args],
    {
      // The worker reports on stdout in JSON lines; the log stays at warn (stderr) so it cannot come first.
      env: { ...process.env, DATABASE_URL: url, VIGIL_SEED: "off", VIGIL_LOG_LEVEL: "warn", ...env },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    },
  );
  let stderr = "";
  child.stderr?.on("data", (d) => {
    stderr += d;
  });
  const line = new Promise<Record<string, unknown>>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (d) => {
      out += d;
      const first = out
        .split("\n")
        .slice(0, -1)
        .find((l) => l.startsWith("{"));
      if (first) resolve(JSON.parse(first));
    });
    child.on("exit", (code) => reject(new Error(`worker exited ${code}: ${stderr.slice(-2000)}`)));
  });
  line.catch(() => undefined);
  return { child, line };
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals) {
  try {
    process.kill(-(child.pid as number), signal);
  } catch {
    // gone already
  }
}

interface Failover {
  runs: number;
  how: string;
  inFlight: number;
  stalls: number[];
  lost: number;
  duplicated: number;
  unfinished: number;
  /** Runs whose replayed stream (a reload) does not read the answer exactly once. */
  replayNotOnce: number;
}

async function failover(sql: postgres.Sql, url: string, tenant: string, runs: number, how: "kill -9" | "SIGTERM") {
  const standby = worker(url, ["standby", tenant]);
  const executing = worker(url, [
    "start-many",
    tenant,
    JSON.stringify({ count: runs, message: MESSAGE, requireApproval: false, delayMs: DELAY_MS }),
  ]);
  try {
    await standby.line;
    const { runIds } = (await executing.line) as { runIds: string[] };
    const killedAt = Date.now();
    signalGroup(executing.child, how === "kill -9" ? "SIGKILL" : "SIGTERM");
    const deadline = Date.now() + 300_000;
    for (;;) {
      const [{ n }] = await sql<
        { n: number }[]
      >`select count(*)::int as n from runs where id = any(${runIds}) and status = 'running'`;
      if (n === 0 || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const result: Failover = {
      runs,
      how,
      inFlight: 0,
      stalls: [],
      lost: 0,
      duplicated: 0,
      unfinished: 0,
      replayNotOnce: 0,
    };
    for (const runId of runIds) {
      const [run] = await sql<{ status: string }[]>`select status from runs where id = ${runId}`;
      const events = await sql<{ seq: number; type: string; payload: Record<string, unknown>; created_at: Date }[]>`
        select seq, type, payload, created_at from run_events where run_id = ${runId} order by seq`;
      if (run.status !== "completed") result.unfinished += 1;
      const recovery = events.find((e) => e.type === "step" && e.payload.node === "recovery");
      if (!recovery) continue; // finished before the kill: not in flight
      result.inFlight += 1;
      result.stalls.push(recovery.created_at.getTime() - killedAt);
      const contiguous = events.every((e, i) => e.seq === i + 1);
      const finishes = events.filter((e) => e.type === "finish").length;
      // The answer as the reader ends up with it: the last text part (each attempt of a node
      // streams into a part of its own).
      const texts = events.filter((e) => e.type === "text");
      const lastPart = texts.at(-1)?.payload.partId;
      const answer = texts
        .filter((e) => e.payload.partId === lastPart)
        .map((e) => String(e.payload.delta))
        .join("");
      // What a client reloading the run reads: the whole log replayed as its stream, the parts
      // of the dead attempt skipped as the log says.
      const log = events as unknown as RunEvent[];
      const adapter = new UIChunkAdapter(log.flatMap((e) => (e.type === "supersede" ? e.payload.partIds : [])));
      const replayed = log
        .flatMap((e) => adapter.toChunks(e))
        .map((c) => (c.type === "text-delta" ? c.delta : ""))
        .join("");
      if (replayed !== MESSAGE) result.replayNotOnce += 1;
      // A step that completed (its result kept) and then ran again after the takeover.
      const completions = events.filter(
        (e) => e.type === "step" && e.payload.node === "respond" && e.payload.status === "done",
      ).length;
      if (!contiguous || finishes === 0 || answer !== MESSAGE) {
        result.lost += 1;
        console.warn(
          JSON.stringify({
            lost: runId,
            contiguous,
            finishes,
            answerWords: answer.split(" ").length,
            events: events.length,
          }),
        );
      } else if (finishes > 1 || completions > 1) result.duplicated += 1;
    }
    return result;
  } finally {
    signalGroup(executing.child, "SIGKILL");
    signalGroup(standby.child, "SIGKILL");
  }
}

async function crossInstanceLatency(sql: postgres.Sql, url: string, tenant: string, notify: boolean) {
  const dir = mkdtempSync(path.join(tmpdir(), "vigil-failover-"));
  const out = path.join(dir, "received.json");
  const executing = worker(url, [
    "start-many",
    tenant,
    JSON.stringify({
      count: 10,
      // Answers that outlast the reader's start-up (a process that compiles and boots) by far.
      message: Array.from({ length: 300 }, (_, i) => `word${i}`).join(" "),
      requireApproval: false,
      delayMs: 100,
    }),
  ]);
  try {
    const { runIds } = (await executing.line) as { runIds: string[] };
    const follower = worker(url, ["follow", tenant, JSON.stringify({ runIds, out })], {
      VIGIL_RUN_NOTIFY: notify ? "on" : "off",
    });
    await follower.line;
    const { startedAt, received } = JSON.parse(readFileSync(out, "utf8")) as {
      startedAt: number;
      received: { runId: string; seq: number; at: number }[];
    };
    const written = await sql<{ run_id: string; seq: number; created_at: Date }[]>`
      select run_id, seq, created_at from run_events where run_id = any(${runIds})`;
    const at = new Map(written.map((w) => [`${w.run_id}:${w.seq}`, w.created_at.getTime()]));
    // Live events only: those written after the reader was following (not its replay).
    return received
      .map((r) => ({ written: at.get(`${r.runId}:${r.seq}`) ?? Number.NaN, seen: r.at }))
      .filter((r) => r.written > startedAt + 2000)
      .map((r) => r.seen - r.written);
  } finally {
    signalGroup(executing.child, "SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const server = await createServerDatabase("vigil_failover");
  const database = await openDatabase({ url: server.url });
  const tenant = await benchTenant(database, "Failover bench");
  await database.close();
  const sql = postgres(server.url, { max: 2, onnotice: () => {} });
  try {
    const failovers: Failover[] = [];
    for (const runs of LEVELS) {
      for (const how of ["kill -9", "SIGTERM"] as const) {
        const result = await failover(sql, server.url, tenant, runs, how);
        console.info(JSON.stringify({ ...result, stalls: undefined, p50: percentile(result.stalls, 50) }));
        failovers.push(result);
      }
    }
    const latency = {
      notify: await crossInstanceLatency(sql, server.url, tenant, true),
      poll: await crossInstanceLatency(sql, server.url, tenant, false),
    };
    const report = [
      "# Failover benchmark",
      "",
      `Run ${new Date().toISOString()} with \`npm run bench:failover\`: lease ${leaseMs()} ms, heartbeat ${heartbeatMs()} ms, ${WORDS}-word answers at ${DELAY_MS} ms a word.`,
      "",
      machineRows(),
      "",
      "| runs | stop | runs in flight | stall p50 ms | p95 ms | max ms | lost | duplicated | unfinished | replay not the answer once |",
      "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
      ...failovers.map(
        (f) =>
          `| ${f.runs} | ${f.how} | ${f.inFlight} | ${fmt(percentile(f.stalls, 50), 0)} | ${fmt(percentile(f.stalls, 95), 0)} | ${fmt(Math.max(...f.stalls), 0)} | ${f.lost} | ${f.duplicated} | ${f.unfinished} | ${f.replayNotOnce} |`,
      ),
      "",
      "| cross-instance wake-up | live events | p50 ms | p95 ms | max ms |",
      "| --- | ---: | ---: | ---: | ---: |",
      ...Object.entries(latency).map(
        ([how, ms]) =>
          `| ${how === "notify" ? "LISTEN/NOTIFY" : "poll only (VIGIL_RUN_NOTIFY=off)"} | ${ms.length} | ${fmt(percentile(ms, 50), 0)} | ${fmt(percentile(ms, 95), 0)} | ${fmt(Math.max(...ms), 0)} |`,
      ),
      "",
    ].join("\n");
    writeFileSync("bench/results/failover.md", report);
    console.info(report);
  } finally {
    await sql.end();
    await server.drop();
  }
}

await main();
