// A soak of the production server: `next start` on a fresh database of the machine's
// PostgreSQL, under a fixed open-loop mix of chats, demo-echo runs taken through their approval,
// knowledge searches, inbox lists, health checks and document uploads, first for a warm-up and
// then for the measured load. Reports each route's errors and latencies, the server's resident
// memory after the warm-up and after the load, its event-loop delay and the CPU it took.
//
//   npx next build && npm run bench:soak
//   BENCH_SOAK_SECONDS=60 BENCH_SOAK_WARMUP_SECONDS=15 npm run bench:soak     (a quick look)
//
// BENCH_SOAK_RATE (default 3) multiplies every rate; BENCH_SOAK_MEMBER_KEYS, BENCH_SOAK_MAX_IN_FLIGHT and
// BENCH_SOAK_PORT set the rest. BENCH_DATABASE_URL (or TEST_DATABASE_URL) names the server.

import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { cpus, tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { openDatabase, rowsOf, setActiveDatabase } from "@/lib/db";
import { seedDemo, seedKnowledgeCorpus } from "@/lib/demo";
import { createApiKey, tenantBySlug } from "@/lib/tenancy";
import { assertPortFree, type DetachedServer, startDetached, stopDetached } from "./support/detached-server";
import { type LoadReading, meterLoad } from "./support/load-meter";
import {
  memoryHistory,
  nextServerReading,
  type ProbeReading,
  probeEnv,
  probeReadings,
  serverReading,
  startProbeEpoch,
} from "./support/loop-probe-readings";
import { fmt, machineRows } from "./support/machine";
import { type MemoryTrend, memoryTrend } from "./support/memory-trend";
import { waitHealthy } from "./support/next-server";
import { openLoop, type Stream } from "./support/open-loop";
import { sampleCpu } from "./support/process-cpu";
import { RouteStats } from "./support/route-stats";
import { createServerDatabase } from "./support/server-database";
import { ROUTES, SoakClient, type SoakKeys, TIMEOUT_MS } from "./support/soak-flows";

const SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 600);
const WARMUP_SECONDS = Number(process.env.BENCH_SOAK_WARMUP_SECONDS ?? 60);
const RATE = Number(process.env.BENCH_SOAK_RATE ?? 3);
/** The per-person cap on working chat runs (3) counts each key apart: several members share the chats. */
const MEMBER_KEYS = Number(process.env.BENCH_SOAK_MEMBER_KEYS ?? 4);
const MAX_IN_FLIGHT = Number(process.env.BENCH_SOAK_MAX_IN_FLIGHT ?? 64);
const PORT = Number(process.env.BENCH_SOAK_PORT ?? 3331);
const FULL_SECONDS = 600;
const RSS_GROWTH_GOAL = 15;
/** The first and the last this many seconds of the load give its start and end memory. */
const MEMORY_WINDOW_SECONDS = Math.min(60, SECONDS / 5);
/**
 * The load saturates the machine when the server process nears one core (its JavaScript runs
 * on one thread) or the load's processes together near all of them.
 */
const SATURATED_SERVER_CORES = 0.85;
const SATURATED_MACHINE_SHARE = 0.9;

/** The load's streams: starts a second at BENCH_SOAK_RATE=1, and what each start does. */
const STREAMS: {
  name: string;
  route: string;
  perSecond: number;
  start: (client: SoakClient, stats: RouteStats, n: number) => Promise<unknown>;
}[] = [
  { name: "chat", route: ROUTES.chat, perSecond: 1, start: (c, stats, n) => c.chat(stats, n) },
  { name: "run", route: ROUTES.run, perSecond: 1, start: (c, stats, n) => c.run(stats, n) },
  { name: "search", route: ROUTES.search, perSecond: 2, start: (c, stats, n) => c.search(stats, n) },
  { name: "inbox", route: ROUTES.inbox, perSecond: 1, start: (c, stats) => c.inbox(stats) },
  { name: "health", route: ROUTES.health, perSecond: 1, start: (c, stats) => c.health(stats) },
  { name: "upload", route: ROUTES.upload, perSecond: 1 / 15, start: (c, stats) => c.upload(stats) },
];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const line = (cells: (string | number)[]) => `| ${cells.join(" | ")} |`;
const mib = (bytes: number) => fmt(bytes / 1024 ** 2, 0);
const rateText = (perSecond: number) =>
  perSecond >= 1 ? `${fmt(perSecond, perSecond % 1 ? 2 : 0)}/s` : `1 every ${fmt(1 / perSecond, 0)} s`;

interface Setup {
  keys: SoakKeys;
  pgVersion: string;
}

/** Migrates and seeds the database, and mints the benchmark's keys, on a connection closed after. */
async function prepare(url: string): Promise<Setup> {
  const setup = await openDatabase({ url });
  setActiveDatabase(setup);
  try {
    await seedDemo(setup, { force: true });
    await seedKnowledgeCorpus(setup, { embeddings: null });
    const tenant = await tenantBySlug("demo");
    if (!tenant) throw new Error("the demo seed made no tenant `demo`");
    const key = async (role: "member" | "reviewer" | "admin", name: string) =>
      (await createApiKey(tenant, { name, role, createdBy: "bench:soak", createdVia: "operator" })).key;
    const members: string[] = [];
    for (let i = 1; i <= MEMBER_KEYS; i++) members.push(await key("member", `soak member ${i}`));
    const keys = { members, reviewer: await key("reviewer", "soak reviewer"), admin: await key("admin", "soak admin") };
    const [{ v }] = rowsOf<{ v: string }>(await setup.db.execute(sql`select current_setting('server_version') as v`));
    return { keys, pgVersion: v };
  } finally {
    setActiveDatabase(undefined);
    await setup.close();
  }
}

interface Window {
  serverCpu: { mean: number; peak: number };
  load: LoadReading;
  rssStart: ProbeReading;
  end: ProbeReading;
  memory: MemoryTrend | null;
  processes: ProbeReading[];
  peakInFlight: number;
  maxStartDelayMs: number;
  abandonedRuns: number;
  drainSeconds: number;
}

/** The warm-up, then the measured load; the load's numbers. */
async function soak(
  server: DetachedServer,
  probeDir: string,
  keys: SoakKeys,
  warmup: RouteStats,
  measured: RouteStats,
  othersBackends: () => Promise<number[]>,
): Promise<Window> {
  const client = new SoakClient(server.base, keys);
  let current = warmup;
  let abandonedRuns = 0;
  const started = new Map<string, number>();
  const streams: Stream[] = STREAMS.map((x) => ({
    name: x.name,
    perSecond: x.perSecond * RATE,
    start: async () => {
      const n = (started.get(x.name) ?? 0) + 1;
      started.set(x.name, n);
      const stats = current;
      // A run ended by a failed request (recorded under that request) is also counted as abandoned.
      if ((await x.start(client, stats, n)) === false && stats === measured) abandonedRuns += 1;
    },
  }));
  const routeOf = new Map(STREAMS.map((x) => [x.name, x.route]));
  const pid = serverReading(probeReadings(probeDir))?.pid as number;

  const loop = openLoop(streams, {
    maxInFlight: MAX_IN_FLIGHT,
    onSkipped: (name) => current.error(routeOf.get(name) ?? name, `slot skipped: ${MAX_IN_FLIGHT} requests in flight`),
  });
  process.stderr.write(`warm-up: ${WARMUP_SECONDS} s…\n`);
  await sleep(WARMUP_SECONDS * 1000);

  current = measured;
  const loadStarted = Date.now();
  startProbeEpoch(probeDir, 1);
  const meter = meterLoad(othersBackends);
  const cpu = sampleCpu(pid);
  process.stderr.write(`load: ${SECONDS} s…\n`);
  // The first reading after the warm-up (the probe then starts the load's delay window).
  const rssStart = await nextServerReading(probeDir, loadStarted);
  await sleep(Math.max(0, loadStarted + SECONDS * 1000 - Date.now()));

  const drained = loop.stop();
  const serverCpu = cpu.stop();
  const load = await meter.stop();
  process.stderr.write("waiting for the requests in flight…\n");
  await drained;
  const drainSeconds = (Date.now() - loadStarted) / 1000 - SECONDS;
  const end = await nextServerReading(probeDir, Date.now(), (r) => r.epoch === 1);
  const memory = memoryTrend(
    memoryHistory(probeDir, pid),
    loadStarted,
    loadStarted + SECONDS * 1000,
    MEMORY_WINDOW_SECONDS,
  );
  return {
    serverCpu,
    load,
    rssStart,
    end,
    memory,
    processes: probeReadings(probeDir),
    peakInFlight: loop.peakInFlight(),
    maxStartDelayMs: loop.maxStartDelayMs(),
    abandonedRuns,
    drainSeconds,
  };
}

function report(setup: Setup, w: Window, warmup: RouteStats, measured: RouteStats): { text: string; ok: boolean } {
  const nextVersion = JSON.parse(readFileSync("node_modules/next/package.json", "utf8")).version as string;
  const growth = ((w.end.rss - w.rssStart.rss) / w.rssStart.rss) * 100;
  const m = w.memory;
  const windowGrowth = m ? ((m.end.rss - m.start.rss) / m.start.rss) * 100 : Number.NaN;
  const signed = (n: number, digits = 1) => `${n >= 0 ? "+" : ""}${fmt(n, digits)}`;
  const errors = measured.errorsOf();
  const requests = measured.requestsOf([ROUTES.run]);
  const runs = measured.requestsOf() - requests;
  const loadCores = w.serverCpu.mean + w.load.postgresCores + w.load.processCores;
  const others = w.load.machineCores - loadCores;
  const full = SATURATED_MACHINE_SHARE * cpus().length;
  const saturated = w.serverCpu.peak >= SATURATED_SERVER_CORES || loadCores >= full;
  const crowded = !saturated && w.load.machineCores >= full;
  const short = SECONDS < FULL_SECONDS;
  const rows = measured.rows();
  const lagWindow = (w.end.at - w.end.since) / 1000;
  const text = [
    "# Soak benchmark",
    "",
    `Run ${new Date().toISOString()} with \`npm run bench:soak\`${short ? ` — **a short run** (\`BENCH_SOAK_SECONDS=${SECONDS}\`, \`BENCH_SOAK_WARMUP_SECONDS=${WARMUP_SECONDS}\`), not the ${FULL_SECONDS / 60}-minute soak` : ""}.`,
    "",
    machineRows([
      ["Next.js", `${nextVersion} (\`next start\`, production build)`],
      ["PostgreSQL server", `${setup.pgVersion} (local, TCP)`],
      ["engine", "offline (extractive, no model)"],
    ]),
    "",
    `Workload, open loop (each request started on its schedule, whether or not earlier ones had finished; at most ${MAX_IN_FLIGHT} unfinished, a slot that finds them all busy is skipped and counted as an error), at \`BENCH_SOAK_RATE=${RATE}\`: ${STREAMS.map((x) => `${x.name} ${rateText(x.perSecond * RATE)}`).join(", ")}; ${WARMUP_SECONDS} s of warm-up, then ${SECONDS} s measured. A fresh database, migrated and seeded with the demo tenants and knowledge corpus; every request carries an API key of the demo tenant: chats, runs and searches one of ${MEMBER_KEYS} member keys in turn (the per-person cap of 3 working chat and autonomous runs, 429 \`TOO_MANY_RUNS\`, counts each key apart; the soak measures the server, not that cap), the inbox and decisions a reviewer's key, uploads an admin's.`,
    "",
    `- *chat*: \`POST /api/chat\`, a question about the seeded knowledge (six, in turn, to four experts), its answer stream read to \`[DONE]\`.`,
    `- *run*: \`POST /api/runs\` \`{workflow: "demo-echo", input: {message, requireApproval: true}}\`, then \`GET /api/runs/{id}\` every 300 ms until \`interrupted\`, its case from \`GET /api/hitl/cases?ref_type=run&ref_value={id}&state=pending\` (reviewer), \`POST /api/hitl/cases/{id}/decision\` \`{request_id, decision: "approved"}\` (answered \`linkedRun.resume: "resumed"\`), \`GET /api/runs/{id}\` until \`completed\`; the run's row times the whole flow.`,
    `- *search*: \`GET /api/knowledge/search?q=…\`, eight queries in turn; *inbox*: \`GET /api/hitl/queue?limit=25\` (reviewer); *health*: \`GET /api/health\`.`,
    `- *upload*: \`POST /api/knowledge/documents\`, multipart, a generated Markdown document of ~50 KB, different every time, in the domain \`soak\` (201 expected).`,
    "",
    `An error: any other status than the one expected (200; 202 for a run, 201 for an upload), a network failure or no answer within ${TIMEOUT_MS / 1000} s, a chat stream without \`[DONE]\` or with an error chunk, a run that is not completed within ${TIMEOUT_MS / 1000} s of its start, a skipped slot. Latencies are of the requests that succeeded, from sending to the last byte of the answer.`,
    "",
    "## Routes, over the measured load",
    "",
    "| route | requests | errors | p50 ms | p95 ms | max ms |",
    "| --- | ---: | ---: | ---: | ---: | ---: |",
    ...rows.map((r) => line([r.route, r.requests, r.errors, fmt(r.p50), fmt(r.p95), fmt(r.max)])),
    line(["**all requests and runs**", `**${requests}** and **${runs}**`, `**${errors}**`, "", "", ""]),
    "",
    `Errors: ${errors}${errors > 0 ? ":" : "."}`,
    ...(errors > 0 ? ["", ...measured.errorList().map((e) => `- ${e.route}: ${e.reason} — ${e.count}`)] : []),
    ...(w.abandonedRuns > 0
      ? ["", `${w.abandonedRuns} runs were abandoned after one of their requests failed (counted under that request).`]
      : []),
    ...(warmup.errorsOf() > 0
      ? [
          "",
          `During the warm-up (not counted above): ${warmup
            .errorList()
            .map((e) => `${e.route} ${e.reason} ×${e.count}`)
            .join("; ")}.`,
        ]
      : [`\nThe warm-up's ${warmup.requestsOf([ROUTES.run])} requests had no errors.`]),
    "",
    `The generator kept its schedule: the latest start was ${fmt(w.maxStartDelayMs, 0)} ms behind its slot; at most ${w.peakInFlight} requests were in flight. After the load, the requests still in flight took ${fmt(w.drainSeconds, 1)} s to finish.`,
    "",
    "## The server",
    "",
    `The probe (bench/support/loop-probe.cjs, preloaded into \`next start\` with \`NODE_OPTIONS=--require\`; no product code changes) reports every 2 s from each Node.js process. \`next start\` ran ${w.processes.length} process${w.processes.length === 1 ? "" : "es"} (${w.processes.map((p) => `pid ${p.pid} \`${p.title}\` ${mib(p.rss)} MiB`).join("; ")}); the figures are those of pid ${w.end.pid}, \`${w.end.title}\`, the process that serves HTTP.`,
    "",
    "| measure | value |",
    "| --- | ---: |",
    ...(m
      ? [
          line([
            `RSS, median of the load's first ${fmt(m.windowSeconds, 0)} s → last ${fmt(m.windowSeconds, 0)} s, MiB`,
            `${mib(m.start.rss)} → ${mib(m.end.rss)}`,
          ]),
          line(["RSS growth (those medians)", `${signed(windowGrowth)} %`]),
          line(["RSS trend over the load (least squares), MiB a minute", signed(m.rssSlopePerMinute / 1024 ** 2)]),
          line([
            "RSS lowest / highest reading during the load, MiB",
            `${mib(m.rssRange.min)} / ${mib(m.rssRange.max)}`,
          ]),
          line([
            `V8 heap in use, median of the first → last ${fmt(m.windowSeconds, 0)} s, MiB`,
            `${mib(m.start.heapUsed)} → ${mib(m.end.heapUsed)}`,
          ]),
          line(["V8 heap in use, trend over the load, MiB a minute", signed(m.heapUsedSlopePerMinute / 1024 ** 2)]),
        ]
      : []),
    line([
      "RSS, single readings: after the warm-up → after the load, MiB",
      `${mib(w.rssStart.rss)} → ${mib(w.end.rss)} (${signed(growth)} %)`,
    ]),
    line([
      `event-loop delay p50 / p99 / max, ms (over ${fmt(lagWindow, 0)} s)`,
      `${fmt(w.end.lag.p50, 1)} / ${fmt(w.end.lag.p99, 1)} / ${fmt(w.end.lag.max, 1)}`,
    ]),
    line([
      "CPU, cores: server process, mean / busiest 10 s",
      `${fmt(w.serverCpu.mean, 2)} / ${fmt(w.serverCpu.peak, 2)}`,
    ]),
    line(["CPU, cores: PostgreSQL", fmt(w.load.postgresCores, 2)]),
    line(["CPU, cores: the load generator (this benchmark)", fmt(w.load.processCores, 2)]),
    line(["CPU, cores: anything else", fmt(others, 2)]),
    line(["CPU, cores: the whole machine", `${fmt(w.load.machineCores, 2)} of ${cpus().length}`]),
    "",
    `*RSS* is \`process.memoryUsage.rss()\` of the server process, read by the probe every 2 s (${m ? `${m.samples} readings over the load` : "too few readings for a trend"}). It saws up and down as V8 grows its heap and collects it, so growth is judged on the median of the load's first and last ${fmt(MEMORY_WINDOW_SECONDS, 0)} s, with the slope of a least-squares line through every reading beside it (a leak climbs steadily; a sawtooth does not). The single readings — the probe's first once the load began, its first once every request had finished — are shown as well. *Event-loop delay*: \`monitorEventLoopDelay({resolution: 10})\`, how late the 10 ms timer ran, the histogram reset at the load's start (at the probe's next reading) and read at the end. *CPU* over the ${SECONDS} s load, in cores of the machine's ${cpus().length}: the server process from /proc/{pid}/stat (its busiest 10 s interval as well: its JavaScript runs on one thread, so near 1 core it is saturated); PostgreSQL, the load generator and the machine as bench/support/load-meter.ts measures them (PostgreSQL: its processes, other databases' backends excepted); *anything else* is the machine less those three — other work on the shared machine.`,
    "",
    `The rate ${saturated ? "**saturated**" : "did not saturate"} the machine: the server process used at most ${fmt(w.serverCpu.peak, 2)} cores over 10 s (saturated at ${SATURATED_SERVER_CORES}), the server, PostgreSQL and the generator together ${fmt(loadCores, 2)} of ${cpus().length} cores.${saturated ? " Lower it with BENCH_SOAK_RATE." : ""}${crowded ? ` The machine as a whole was near full (${fmt(w.load.machineCores, 2)} cores), ${fmt(others, 2)} of them other work: the latencies include that contention.` : ""}`,
    "",
    "## Goals",
    "",
    `- 0 errors — ${errors === 0 ? "met" : "NOT met"} (${errors}, in ${requests} requests and ${runs} runs).`,
    m
      ? `- RSS growth < ${RSS_GROWTH_GOAL} % — ${windowGrowth < RSS_GROWTH_GOAL ? "met" : "NOT met"} (medians of the first and last ${fmt(m.windowSeconds, 0)} s: ${mib(m.start.rss)} → ${mib(m.end.rss)} MiB, ${signed(windowGrowth)} %; trend ${signed(m.rssSlopePerMinute / 1024 ** 2)} MiB a minute; single readings ${signed(growth)} %).`
      : `- RSS growth < ${RSS_GROWTH_GOAL} % — not judged: the probe left too few readings.`,
    ...(short
      ? ["", `A short run: ${SECONDS} s of load says little about growth over ${FULL_SECONDS / 60} minutes.`]
      : []),
    "",
  ].join("\n");
  return { text, ok: errors === 0 };
}

async function main(): Promise<number> {
  if (!existsSync(path.join(".next", "BUILD_ID"))) {
    console.error("No production build: run `npx next build` first.");
    return 1;
  }
  await assertPortFree(PORT);
  const cleanups: (() => Promise<void>)[] = [];
  const cleanup = async () => {
    for (const fn of cleanups.splice(0).reverse()) {
      await fn().catch((error) => console.error(`cleanup: ${(error as Error).message}`));
    }
  };
  const interrupted = (code: number) => () => void cleanup().finally(() => process.exit(code));
  process.once("SIGINT", interrupted(130));
  process.once("SIGTERM", interrupted(143));
  try {
    const database = await createServerDatabase("vigil_bench_soak");
    cleanups.push(database.drop);
    process.stderr.write("migrating and seeding…\n");
    const setup = await prepare(database.url);

    const probeDir = mkdtempSync(path.join(tmpdir(), "vigil-soak-probe-"));
    cleanups.push(async () => rmSync(probeDir, { recursive: true, force: true }));
    const server = startDetached(PORT, {
      ...probeEnv(probeDir),
      DATABASE_URL: database.url,
      BETTER_AUTH_SECRET: "bench-secret-bench-secret-bench-secret",
      VIGIL_MODEL_PROVIDER: "offline",
      VIGIL_EMBEDDING_MODEL: "",
    });
    cleanups.push(() => stopDetached(server));
    await Promise.race([
      waitHealthy(server.base),
      server.exited.then(() => {
        throw new Error("next start exited before it answered");
      }),
    ]);
    await nextServerReading(probeDir, 0);

    const stats = postgres(database.url, { max: 1, onnotice: () => {} });
    cleanups.push(() => stats.end());
    const othersBackends = async () =>
      (
        await stats<{ pid: number }[]>`select pid from pg_stat_activity
          where datname is not null and datname <> current_database()`
      ).map((r) => r.pid);

    const order = Object.values(ROUTES);
    const warmup = new RouteStats(order);
    const measured = new RouteStats(order);
    const window = await soak(server, probeDir, setup.keys, warmup, measured, othersBackends);
    await cleanup();

    const { text, ok } = report(setup, window, warmup, measured);
    console.log(text);
    await mkdir(path.join("bench", "results"), { recursive: true });
    await writeFile(path.join("bench", "results", "soak.md"), text);
    return ok ? 0 : 1;
  } finally {
    await cleanup();
  }
}

process.exit(await main());
