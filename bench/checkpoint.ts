// Checkpoint saver benchmark: DrizzleCheckpointSaver against the official PostgresSaver on the same
// PostgreSQL server, each in a fresh database, plus our saver on embedded PGlite.
//
//   npx tsx bench/checkpoint.ts                         (1,000 threads; PGlite 100)
//   BENCH_THREADS=50 BENCH_PGLITE_THREADS=20 npx tsx bench/checkpoint.ts
//
// BENCH_DATABASE_URL (or TEST_DATABASE_URL) names the server; default postgres://postgres@127.0.0.1:5432/postgres.

import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { RunnableConfig } from "@langchain/core/runnables";
import type { BaseCheckpointSaver, Checkpoint, CheckpointMetadata } from "@langchain/langgraph-checkpoint";
import { uuid6 } from "@langchain/langgraph-checkpoint";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { sql } from "drizzle-orm";
import { DrizzleCheckpointSaver } from "@/lib/checkpoint";
import { type Database, getDatabase, rowsOf } from "@/lib/db";
import { createServerDatabase } from "./support/server-database";
import { benchTenant } from "./support/tenant";

const THREADS = Number(process.env.BENCH_THREADS ?? 1000);
const PGLITE_THREADS = Number(process.env.BENCH_PGLITE_THREADS ?? 100);
const STEPS = Number(process.env.BENCH_STEPS ?? 20);
const CHANNELS = 10;
const CHANGED_PER_STEP = 2;
const VALUE_BYTES = 4096;
const LIST_LIMIT = 10;

const OPERATIONS = ["put", "putWrites", "getTuple", "list"] as const;
type Operation = (typeof OPERATIONS)[number];
type Samples = Record<Operation, number[]>;

const channelNames = Array.from({ length: CHANNELS }, (_, i) => `channel_${i}`);

/** A ~4 KiB channel value of incompressible text, so TOAST compression flatters neither saver. */
function channelValue(channel: string, step: number) {
  return { channel, step, text: randomBytes((VALUE_BYTES * 3) / 4).toString("base64") };
}

/**
 * One thread as the Pregel loop drives a saver: every step puts a checkpoint whose newVersions
 * name only the channels that step changed, records the step's writes, and reads the latest
 * checkpoint back; at the end the thread's history is listed.
 */
async function runThread(saver: BaseCheckpointSaver, threadId: string, samples: Samples | undefined) {
  const timed = async <T>(op: Operation, fn: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    const result = await fn();
    samples?.[op].push(performance.now() - start);
    return result;
  };
  const values: Record<string, unknown> = {};
  const versions: Record<string, number> = {};
  let config: RunnableConfig = { configurable: { thread_id: threadId, checkpoint_ns: "" } };
  for (let step = 0; step < STEPS; step++) {
    const changed =
      step === 0
        ? channelNames
        : Array.from({ length: CHANGED_PER_STEP }, (_, i) => channelNames[(step * CHANGED_PER_STEP + i) % CHANNELS]);
    const newVersions: Record<string, number> = {};
    for (const channel of changed) {
      values[channel] = channelValue(channel, step);
      versions[channel] = (versions[channel] ?? 0) + 1;
      newVersions[channel] = versions[channel];
    }
    const checkpoint: Checkpoint = {
      v: 4,
      id: uuid6(0),
      ts: new Date().toISOString(),
      channel_values: { ...values },
      channel_versions: { ...versions },
      versions_seen: { agent: { ...versions } },
    };
    const metadata = { source: "loop", step, parents: {}, run_id: `run-${threadId}` } as CheckpointMetadata;
    const putConfig = config;
    config = await timed("put", () => saver.put(putConfig, checkpoint, metadata, newVersions));
    const writes = changed.slice(0, CHANGED_PER_STEP).map((channel): [string, unknown] => [channel, values[channel]]);
    const writeConfig = config;
    await timed("putWrites", () => saver.putWrites(writeConfig, writes, `task-${step}`));
    await timed("getTuple", () => saver.getTuple({ configurable: { thread_id: threadId, checkpoint_ns: "" } }));
  }
  await timed("list", async () => {
    let n = 0;
    for await (const _ of saver.list({ configurable: { thread_id: threadId } }, { limit: LIST_LIMIT })) n++;
    if (n !== Math.min(LIST_LIMIT, STEPS)) throw new Error(`list returned ${n} checkpoints`);
  });
}

function emptySamples(): Samples {
  return { put: [], putWrites: [], getTuple: [], list: [] };
}

interface Summary {
  count: number;
  opsPerSecond: number;
  p50: number;
  p95: number;
}

function summarize(samples: number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const total = sorted.reduce((sum, x) => sum + x, 0);
  return { count: sorted.length, opsPerSecond: (sorted.length / total) * 1000, p50: at(0.5), p95: at(0.95) };
}

async function drizzleSaverOn(database: Database): Promise<DrizzleCheckpointSaver> {
  return new DrizzleCheckpointSaver({ tenantId: await benchTenant(database, "Checkpoint benchmark") });
}

async function serverVersion(database: Database): Promise<string> {
  const rows = rowsOf<{ version: string }>(await database.db.execute(sql`select version() as version`));
  return rows[0].version.split(" on ")[0].split(",")[0];
}

const ms = (x: number) => x.toFixed(2);
const rate = (x: number) => Math.round(x).toLocaleString("en-US");

function progress(label: string, done: number, total: number) {
  if (process.stderr.isTTY) process.stderr.write(`\r${label}: ${done}/${total} threads`);
  else if (done === total || done % Math.max(1, Math.floor(total / 10)) === 0)
    process.stderr.write(`${label}: ${done}/${total} threads\n`);
}

async function benchServer() {
  const ours = await createServerDatabase("vigil_bench");
  const official = await createServerDatabase("lg_bench");
  // The application's own path: getDatabase() from DATABASE_URL, as a server deployment runs.
  process.env.DATABASE_URL = ours.url;
  const database = await getDatabase();
  const officialSaver = PostgresSaver.fromConnString(official.url);
  try {
    await officialSaver.setup();
    const drizzleSaver = await drizzleSaverOn(database);
    const pgVersion = await serverVersion(database);
    const warmup = Math.min(10, Math.max(1, Math.floor(THREADS / 20)));
    for (let i = 0; i < warmup; i++) {
      await runThread(drizzleSaver, `warmup-${i}`, undefined);
      await runThread(officialSaver, `warmup-${i}`, undefined);
    }
    const samples = { ours: emptySamples(), official: emptySamples() };
    // Interleaved thread by thread, alternating who goes first, so drift on the machine (other
    // load, autovacuum, cache warmth) lands on both savers alike.
    for (let i = 0; i < THREADS; i++) {
      const threadId = `thread-${i}`;
      if (i % 2 === 0) {
        await runThread(drizzleSaver, threadId, samples.ours);
        await runThread(officialSaver, threadId, samples.official);
      } else {
        await runThread(officialSaver, threadId, samples.official);
        await runThread(drizzleSaver, threadId, samples.ours);
      }
      progress("server", i + 1, THREADS);
    }
    return { pgVersion, samples };
  } finally {
    await officialSaver.end();
    await database.close();
    await ours.drop();
    await official.drop();
  }
}

async function benchPglite() {
  // Embedded mode as the app runs it without DATABASE_URL, in memory so no data folder is touched.
  delete process.env.DATABASE_URL;
  process.env.VIGIL_DATA_DIR = "memory://";
  const database = await getDatabase();
  try {
    const saver = await drizzleSaverOn(database);
    const version = await serverVersion(database);
    for (let i = 0; i < Math.min(5, PGLITE_THREADS); i++) await runThread(saver, `warmup-${i}`, undefined);
    const samples = emptySamples();
    for (let i = 0; i < PGLITE_THREADS; i++) {
      await runThread(saver, `thread-${i}`, samples);
      progress("pglite", i + 1, PGLITE_THREADS);
    }
    return { version, samples };
  } finally {
    await database.close();
  }
}

function report(server: Awaited<ReturnType<typeof benchServer>>, pglite: Awaited<ReturnType<typeof benchPglite>>) {
  const cpus = os.cpus();
  const lines: string[] = [];
  lines.push("# Checkpoint saver benchmark", "");
  lines.push(`Run ${new Date().toISOString()} with \`npm run bench:checkpoint\`.`, "");
  lines.push("| machine | |", "| --- | --- |");
  lines.push(`| CPU | ${cpus[0]?.model ?? "unknown"} |`);
  lines.push(`| cores | ${cpus.length} |`);
  lines.push(`| memory | ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB |`);
  lines.push(`| Node.js | ${process.version} |`);
  lines.push(`| PostgreSQL server | ${server.pgVersion} (local, TCP) |`);
  lines.push(`| PGlite | 0.5.14 (${pglite.version}), in memory |`);
  lines.push(
    `| connections | ours: postgres-js pool of ${process.env.DATABASE_POOL_SIZE ?? 10} (DATABASE_POOL_SIZE); official: pg Pool of 10 |`,
    "",
  );
  lines.push(
    `Workload: ${THREADS.toLocaleString("en-US")} threads × ${STEPS} steps, ${CHANNELS} channels of ~${VALUE_BYTES / 1024} KiB ` +
      `(all written at step 0, ${CHANGED_PER_STEP} changed per step after), metadata with a run id. Per step: ` +
      `\`put\` (only changed channels in newVersions), \`putWrites\` (${CHANGED_PER_STEP} writes of ~${VALUE_BYTES / 1024} KiB), ` +
      `\`getTuple\` of the latest checkpoint; per thread: \`list\` with limit ${LIST_LIMIT}. One client, operations ` +
      "run one at a time, so ops/s = 1 / mean latency. The two server savers run interleaved thread by thread, each in " +
      "its own fresh database on the same server; ours through `withTenant` (app role, row-level security).",
    "",
  );
  lines.push(
    "| operation | ops | ours ops/s | ours p50 ms | ours p95 ms | official ops/s | official p50 ms | official p95 ms | ratio (ours/official ops/s) |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  );
  const ours = Object.fromEntries(OPERATIONS.map((op) => [op, summarize(server.samples.ours[op])])) as Record<
    Operation,
    Summary
  >;
  for (const op of OPERATIONS) {
    const o = ours[op];
    const p = summarize(server.samples.official[op]);
    lines.push(
      `| \`${op}\` | ${o.count.toLocaleString("en-US")} | ${rate(o.opsPerSecond)} | ${ms(o.p50)} | ${ms(o.p95)} | ` +
        `${rate(p.opsPerSecond)} | ${ms(p.p50)} | ${ms(p.p95)} | ${(o.opsPerSecond / p.opsPerSecond).toFixed(2)} |`,
    );
  }
  lines.push("");
  lines.push(
    `Goals on the local server: \`put\` p95 < 5 ms — ${ours.put.p95 < 5 ? "met" : "NOT met"} (${ms(ours.put.p95)} ms); ` +
      `\`getTuple\` p95 < 3 ms — ${ours.getTuple.p95 < 3 ? "met" : "NOT met"} (${ms(ours.getTuple.p95)} ms); ` +
      `ratio ≥ 1.0 on every operation — ${
        OPERATIONS.every((op) => ours[op].opsPerSecond >= summarize(server.samples.official[op]).opsPerSecond)
          ? "met"
          : "NOT met"
      }.`,
    "",
  );
  // Fresh tables grow from empty during the run (and this server may not autovacuum): a plan that
  // goes stale as they grow would show here as a slower last tenth than first tenth.
  const tenth = (xs: number[], last: boolean) => {
    const n = Math.max(1, Math.floor(xs.length / 10));
    return summarize(last ? xs.slice(-n) : xs.slice(0, n)).p50;
  };
  const drift = (samples: Samples) =>
    OPERATIONS.map((op) => `\`${op}\` ${ms(tenth(samples[op], false))} → ${ms(tenth(samples[op], true))}`).join(", ");
  lines.push(
    `p50 in ms, first tenth of the threads → last tenth: ours ${drift(server.samples.ours)}; ` +
      `official ${drift(server.samples.official)}.`,
    "",
  );
  lines.push(
    `DrizzleCheckpointSaver on PGlite (${PGLITE_THREADS.toLocaleString("en-US")} threads, same workload otherwise):`,
    "",
  );
  lines.push("| operation | ops | ops/s | p50 ms | p95 ms |", "| --- | ---: | ---: | ---: | ---: |");
  for (const op of OPERATIONS) {
    const s = summarize(pglite.samples[op]);
    lines.push(
      `| \`${op}\` | ${s.count.toLocaleString("en-US")} | ${rate(s.opsPerSecond)} | ${ms(s.p50)} | ${ms(s.p95)} |`,
    );
  }
  return lines.join("\n");
}

async function main() {
  const server = await benchServer();
  const pglite = await benchPglite();
  const table = report(server, pglite);
  console.log(table);
  const resultsDir = path.join(process.cwd(), "bench", "results");
  await mkdir(resultsDir, { recursive: true });
  await writeFile(path.join(resultsDir, "checkpoint.md"), `${table}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
