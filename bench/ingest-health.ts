import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { KNOWLEDGE_CORPUS } from "@/lib/demo";
import { fmt, machineRows, percentile } from "./support/machine";
import { withNextServer } from "./support/next-server";

// How responsive the server stays while it ingests a large upload: /api/health is asked one
// request after another (every 50 ms) while an admin uploads a Markdown document of
// BENCH_INGEST_MIB MiB (default 20, the upload limit), and for a while after it (the knowledge
// index's VACUUM runs then), against `next start` on each database. The same probe on the idle
// server is the peer. Goal: /api/health p95 < 100 ms during the upload.

const MIB = Number(process.env.BENCH_INGEST_MIB ?? 20);
const DATABASES = (process.env.BENCH_INGEST_DATABASES ?? "pglite,postgres").split(",");
const IDLE_PROBES = 100;
const PROBE_EVERY_MS = 50;
const AFTER_MS = 10_000;
const serverUrl =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/**
 * About `bytes` of Markdown made of the demo corpus's paragraphs in a shuffled order, under
 * numbered sections: real English, so its postings and term frequencies look like a real
 * handbook's.
 */
function handbook(bytes: number): string {
  const paragraphs = KNOWLEDGE_CORPUS.demo.flatMap((d) =>
    d.markdown
      .split(/\n\s*\n/)
      .map((p) => p.trim())
      .filter((p) => p && !p.startsWith("#")),
  );
  let seed = 42;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed;
  };
  const parts = ["# Operations handbook\n"];
  let size = parts[0].length;
  for (let section = 1; size < bytes; section++) {
    const block = [`\n## Part ${section}\n`];
    for (let i = 0; i < 10; i++) block.push(paragraphs[next() % paragraphs.length]);
    const text = `${block.join("\n\n")}\n`;
    parts.push(text);
    size += Buffer.byteLength(text);
  }
  return parts.join("");
}

interface Probe {
  at: number;
  ms: number;
  ok: boolean;
}

/** Asks /api/health one request after another until `until()` says stop. */
async function probeHealth(base: string, until: () => boolean): Promise<Probe[]> {
  const probes: Probe[] = [];
  while (!until()) {
    const started = performance.now();
    let ok = false;
    try {
      const res = await fetch(`${base}/api/health`);
      ok = res.ok;
      await res.arrayBuffer();
    } catch {
      ok = false;
    }
    probes.push({ at: started, ms: performance.now() - started, ok });
    await new Promise((r) => setTimeout(r, PROBE_EVERY_MS));
  }
  return probes;
}

/** Migrates and seeds a server database (the demo tenants and their admin), as `npm run db:seed` does. */
async function seedServerDatabase(url: string): Promise<void> {
  const child = spawn(
    process.execPath,
    ["node_modules/tsx/dist/cli.mjs", "--import", "./scripts/server-only-node.mjs", "scripts/db-seed.ts"],
    { env: { ...process.env, DATABASE_URL: url }, stdio: "inherit" },
  );
  const code = await new Promise((resolve) => child.on("exit", resolve));
  if (code !== 0) throw new Error(`seeding the server database failed (exit ${code})`);
}

async function adminCookie(base: string): Promise<string> {
  const res = await fetch(`${base}/api/session`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "admin@demo.local", password: "vigil-demo" }),
  });
  if (!res.ok) throw new Error(`admin sign-in failed: ${res.status}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

interface UploadOutcome {
  status: string;
  chunks: number;
  sentMs: number;
  firstIndexedMs: number;
  doneMs: number;
}

/** Uploads the document and follows its progress events to the outcome. */
async function upload(base: string, cookie: string, markdown: string): Promise<UploadOutcome> {
  const form = new FormData();
  form.append("file", new File([markdown], "handbook.md", { type: "text/markdown" }));
  form.append("domains", "handbook");
  const started = performance.now();
  const res = await fetch(`${base}/api/knowledge/documents`, {
    method: "POST",
    headers: { cookie, accept: "text/event-stream", origin: base },
    body: form,
  });
  const sentMs = performance.now() - started;
  if (!res.body || !(res.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
    return { status: `HTTP ${res.status} ${await res.text()}`, chunks: 0, sentMs, firstIndexedMs: 0, doneMs: 0 };
  }
  let firstIndexedMs = 0;
  let outcome: UploadOutcome = { status: "no outcome", chunks: 0, sentMs, firstIndexedMs: 0, doneMs: 0 };
  let buffer = "";
  const decoder = new TextDecoder();
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    for (let end = buffer.indexOf("\n\n"); end !== -1; end = buffer.indexOf("\n\n")) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? "{}");
      if (event === "progress" && data.phase === "indexing" && data.chunksDone > 0 && !firstIndexedMs) {
        firstIndexedMs = performance.now() - started;
      }
      if (event === "result") {
        outcome = {
          status: data.created ? "created" : "already there",
          chunks: data.document.chunkCount,
          sentMs,
          firstIndexedMs,
          doneMs: performance.now() - started,
        };
      }
      if (event === "error") outcome = { ...outcome, status: `${data.code}: ${data.message}` };
    }
  }
  return outcome;
}

interface Run {
  database: string;
  idle: Probe[];
  during: Probe[];
  after: Probe[];
  upload: UploadOutcome;
}

async function benchAgainst(database: string, env: Record<string, string>, port: number): Promise<Run> {
  return withNextServer(port, env, ".data/bench-ingest", async ({ base }) => {
    const cookie = await adminCookie(base);
    let idleCount = 0;
    const idle = await probeHealth(base, () => idleCount++ >= IDLE_PROBES);
    const markdown = handbook(MIB * 1024 * 1024 - 64 * 1024);
    let uploading = true;
    const probing = probeHealth(base, () => !uploading);
    const outcome = await upload(base, cookie, markdown).finally(() => {
      uploading = false;
    });
    const during = await probing;
    const afterUntil = performance.now() + AFTER_MS;
    const after = await probeHealth(base, () => performance.now() > afterUntil);
    return { database, idle, during, after, upload: outcome };
  });
}

function row(name: string, phase: string, probes: Probe[]): string {
  const ms = probes.map((p) => p.ms);
  const failed = probes.filter((p) => !p.ok).length;
  return `| ${name} | ${phase} | ${probes.length} | ${failed} | ${fmt(percentile(ms, 50))} | ${fmt(percentile(ms, 95))} | ${fmt(Math.max(...ms))} |`;
}

async function main() {
  const runs: Run[] = [];
  const notes: string[] = [];
  if (DATABASES.includes("pglite")) {
    runs.push(await benchAgainst("embedded PGlite", { VIGIL_DATA_DIR: ".data/bench-ingest", DATABASE_URL: "" }, 3315));
  }
  if (DATABASES.includes("postgres")) {
    const dbName = `vigil_bench_ingest_${Date.now()}`;
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    try {
      await admin.unsafe(`create database ${dbName}`);
      const url = new URL(serverUrl);
      url.pathname = `/${dbName}`;
      try {
        await seedServerDatabase(url.toString());
        runs.push(await benchAgainst("server PostgreSQL", { DATABASE_URL: url.toString() }, 3316));
      } finally {
        await admin.unsafe(`drop database if exists ${dbName} with (force)`);
      }
    } catch (error) {
      notes.push(`Server PostgreSQL not measured: ${(error as Error).message}`);
    }
    await admin.end();
  }

  const table = [
    "| database | while | health requests | failed | p50 ms | p95 ms | max ms |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: |",
    ...runs.flatMap((r) => [
      row(r.database, "idle (peer)", r.idle),
      row(r.database, `uploading ${MIB} MiB`, r.during),
      row(r.database, `${AFTER_MS / 1000} s after`, r.after),
    ]),
  ].join("\n");
  const uploads = [
    "| database | outcome | chunks | body sent, s | first chunks indexed, s | done, s | chunks/s |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: |",
    ...runs.map(
      ({ database, upload: u }) =>
        `| ${database} | ${u.status} | ${u.chunks} | ${fmt(u.sentMs / 1000, 2)} | ${fmt(u.firstIndexedMs / 1000, 2)} | ${fmt(u.doneMs / 1000, 1)} | ${fmt(u.chunks / (u.doneMs / 1000), 0)} |`,
    ),
  ].join("\n");
  const verdict = runs.map((r) => {
    const p95 = percentile(
      r.during.map((p) => p.ms),
      95,
    );
    return `- ${r.database}: /api/health p95 during the upload ${fmt(p95)} ms, ${fmt(
      p95 /
        percentile(
          r.idle.map((p) => p.ms),
          95,
        ),
      1,
    )}× idle — goal (< 100 ms) ${p95 < 100 ? "**met**" : "**not met**"}.`;
  });
  const out = [
    "# Ingestion and health benchmark",
    "",
    `Run ${new Date().toISOString()} with \`npm run bench:ingest\`.`,
    "",
    machineRows([["server", "`next start` (production build)"]]),
    "",
    `Workload: an admin uploads one ${MIB} MiB Markdown document (the demo corpus's paragraphs shuffled into numbered parts) as multipart, following its progress events; meanwhile \`GET /api/health\` is asked one request at a time, ${PROBE_EVERY_MS} ms apart, from the upload's start until its outcome, then for ${AFTER_MS / 1000} s more. The idle row is ${IDLE_PROBES} of the same requests before the upload.`,
    "",
    table,
    "",
    uploads,
    "",
    ...verdict,
    ...notes.map((n) => `\n${n}`),
    "",
  ].join("\n");
  console.log(out);
  writeFileSync(path.join("bench", "results", "ingest-health.md"), out);
}

await main();
