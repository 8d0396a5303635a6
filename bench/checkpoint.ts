// Checkpoint saver benchmark: DrizzleCheckpointSaver against the official PostgresSaver on the same
// PostgreSQL server, each in a fresh database, plus our saver on embedded PGlite. Each saver runs
// in a process of its own (bench/support/checkpoint-worker.ts), driven from here thread by thread.
//
//   npx tsx bench/checkpoint.ts                         (1,000 threads; PGlite 100)
//   BENCH_THREADS=50 BENCH_PGLITE_THREADS=20 npx tsx bench/checkpoint.ts
//
// BENCH_DATABASE_URL (or TEST_DATABASE_URL) names the server; default postgres://postgres@127.0.0.1:5432/postgres.

import { type ChildProcess, fork } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { SaverKind, WorkerReply, WorkerRequest } from "./support/checkpoint-worker";
import {
  CHANGED_PER_STEP,
  CHANNELS,
  emptySamples,
  LIST_LIMIT,
  OPERATIONS,
  type Operation,
  type Samples,
  STEPS,
  VALUE_BYTES,
} from "./support/checkpoint-workload";
import { createServerDatabase } from "./support/server-database";

const THREADS = Number(process.env.BENCH_THREADS ?? 1000);
const PGLITE_THREADS = Number(process.env.BENCH_PGLITE_THREADS ?? 100);

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

const ms = (x: number) => x.toFixed(2);
const rate = (x: number) => Math.round(x).toLocaleString("en-US");

function progress(label: string, done: number, total: number) {
  if (process.stderr.isTTY) process.stderr.write(`\r${label}: ${done}/${total} threads`);
  else if (done === total || done % Math.max(1, Math.floor(total / 10)) === 0)
    process.stderr.write(`${label}: ${done}/${total} threads\n`);
}

/** A saver in a child process; each call waits for the worker's reply, so the two never overlap. */
class SaverProcess {
  private readonly child: ChildProcess;
  private pending: { resolve: (reply: WorkerReply) => void; reject: (error: Error) => void } | undefined;

  constructor() {
    // tsx's loader is in execArgv, which fork passes on, so the worker runs as TypeScript too.
    this.child = fork(path.join(import.meta.dirname, "support", "checkpoint-worker.ts"));
    this.child.on("message", (reply: WorkerReply) => {
      const pending = this.pending;
      this.pending = undefined;
      if (reply.type === "error") pending?.reject(new Error(`checkpoint worker: ${reply.message}`));
      else pending?.resolve(reply);
    });
    this.child.on("exit", (code) => {
      this.pending?.reject(new Error(`checkpoint worker exited with ${code}`));
      this.pending = undefined;
    });
  }

  private request(request: WorkerRequest): Promise<WorkerReply> {
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.child.send(request);
    });
  }

  async open(kind: SaverKind, url?: string): Promise<string> {
    const reply = await this.request({ type: "open", kind, url });
    return reply.type === "opened" ? reply.version : "";
  }

  async thread(threadId: string, into?: Samples): Promise<void> {
    const reply = await this.request({ type: "thread", threadId, record: into !== undefined });
    if (into && reply.type === "thread" && reply.samples)
      for (const op of OPERATIONS) into[op].push(...reply.samples[op]);
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once("exit", resolve));
    await this.request({ type: "close" }).catch(() => {});
    await exited;
  }
}

async function benchServer() {
  const oursDb = await createServerDatabase("vigil_bench");
  const officialDb = await createServerDatabase("lg_bench");
  const ours = new SaverProcess();
  const official = new SaverProcess();
  try {
    const pgVersion = await ours.open("ours", oursDb.url);
    await official.open("official", officialDb.url);
    const warmup = Math.min(10, Math.max(1, Math.floor(THREADS / 20)));
    for (let i = 0; i < warmup; i++) {
      await ours.thread(`warmup-${i}`);
      await official.thread(`warmup-${i}`);
    }
    const samples = { ours: emptySamples(), official: emptySamples() };
    // Interleaved thread by thread, alternating who goes first, so drift on the machine (other
    // load, autovacuum, cache warmth) lands on both savers alike.
    for (let i = 0; i < THREADS; i++) {
      const threadId = `thread-${i}`;
      if (i % 2 === 0) {
        await ours.thread(threadId, samples.ours);
        await official.thread(threadId, samples.official);
      } else {
        await official.thread(threadId, samples.official);
        await ours.thread(threadId, samples.ours);
      }
      progress("server", i + 1, THREADS);
    }
    return { pgVersion, samples };
  } finally {
    await ours.close();
    await official.close();
    await oursDb.drop();
    await officialDb.drop();
  }
}

async function benchPglite() {
  const pglite = new SaverProcess();
  try {
    const version = await pglite.open("pglite");
    for (let i = 0; i < Math.min(5, PGLITE_THREADS); i++) await pglite.thread(`warmup-${i}`);
    const samples = emptySamples();
    for (let i = 0; i < PGLITE_THREADS; i++) {
      await pglite.thread(`thread-${i}`, samples);
      progress("pglite", i + 1, PGLITE_THREADS);
    }
    return { version, samples };
  } finally {
    await pglite.close();
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
      "its own fresh database on the same server and each in a Node.js process of its own, so neither pauses for " +
      "the other's garbage collection; ours through `withTenant` (app role, row-level security).",
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
