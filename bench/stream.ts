import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { fmt, machineRows, percentile } from "./support/machine";
import { measured, seedServer, withNextServer } from "./support/next-server";

const LEVELS = (process.env.BENCH_STREAMS ?? "1,32,200").split(",").map(Number);
const WORDS = 20;
const DELAY_MS = 10;
const serverUrl =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

interface Result {
  concurrency: number;
  ttfe: number[];
  total: number[];
  errors: number;
  errorSamples: string[];
  peakRssMb: number;
  wallMs: number;
}

async function main() {
  const sections: string[] = [];
  const results: [string, Result][] = [];
  for (const r of await benchAgainst({ VIGIL_DATA_DIR: ".data/bench-stream", DATABASE_URL: "" }, 3301)) {
    results.push(["embedded PGlite", r]);
  }
  const dbName = `vigil_bench_${Date.now()}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  let serverReady = false;
  try {
    await admin.unsafe(`create database ${dbName}`);
    serverReady = true;
  } catch (error) {
    sections.push(`Server PostgreSQL not measured: ${(error as Error).message}`);
  }
  if (serverReady) {
    const url = new URL(serverUrl);
    url.pathname = `/${dbName}`;
    await seedServer(url.toString());
    for (const r of await benchAgainst({ DATABASE_URL: url.toString() }, 3302)) results.push(["server PostgreSQL", r]);
    await admin.unsafe(`drop database if exists ${dbName} with (force)`);
  }
  await admin.end();

  const version = JSON.parse(readFileSync("node_modules/next/package.json", "utf8")).version;
  const table = [
    "| database | concurrent streams | errors | time to first event p50 ms | p95 ms | stream complete p50 ms | p95 ms | wall s | peak server RSS MiB |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...results.map(
      ([name, r]) =>
        `| ${name} | ${r.concurrency} | ${r.errors}/${r.ttfe.length + r.errors} | ${fmt(percentile(r.ttfe, 50))} | ${fmt(percentile(r.ttfe, 95))} | ${fmt(percentile(r.total, 50))} | ${fmt(percentile(r.total, 95))} | ${fmt(r.wallMs / 1000, 2)} | ${fmt(r.peakRssMb, 0)} |`,
    ),
  ].join("\n");
  const out = [
    "# Run stream benchmark",
    "",
    `Run ${new Date().toISOString()} with \`npm run bench:stream\`.`,
    "",
    machineRows([["Next.js", `${version} (\`next start\`, production build)`]]),
    "",
    `Workload: ${LEVELS.join(", then ")} clients at once (one server per database, warmed up with 5 runs; levels run one after another; a single client is sampled 20 times in a row), each starts a \`demo-echo\` run (${WORDS} words, ${DELAY_MS} ms between words, no approval) with \`POST /api/runs\` and reads \`GET /api/runs/{id}/stream\` to \`[DONE]\`. Time to first event is measured from the start request to the first SSE event; an error is any non-2xx answer, a stream without \`[DONE]\`, or streamed text that differs from the message.`,
    "",
    table,
    ...sections.map((s) => `\n${s}`),
    ...results.flatMap(([name, r]) =>
      r.errorSamples.length ? [`\nErrors on ${name}: ${r.errorSamples.join("; ")}`] : [],
    ),
    "",
  ].join("\n");
  console.log(out);
  writeFileSync(path.join("bench", "results", "stream.md"), out);
}

async function benchAgainst(env: Record<string, string>, port: number): Promise<Result[]> {
  return withNextServer(port, env, ".data/bench-stream", async ({ base, cookie, child }) => {
    const out: Result[] = [];
    // Warm up: the first requests compile routes and fill caches; they are not measured.
    for (let i = 0; i < 5; i++) await oneStream(base, cookie, i);
    for (const concurrency of LEVELS) {
      // One client alone is sampled 20 times in a row; higher levels start all clients at once.
      const {
        result: outcomes,
        wallMs,
        peakRssMb,
      } = await measured(child, () =>
        concurrency === 1
          ? sequential(20, (i) => oneStream(base, cookie, i))
          : Promise.all(Array.from({ length: concurrency }, (_, i) => oneStream(base, cookie, i))),
      );
      const ok = outcomes.filter((o) => !o.error);
      out.push({
        concurrency,
        ttfe: ok.map((o) => o.ttfe),
        total: ok.map((o) => o.total),
        errors: outcomes.length - ok.length,
        errorSamples: [...new Set(outcomes.filter((o) => o.error).map((o) => o.error as string))].slice(0, 3),
        peakRssMb,
        wallMs,
      });
    }
    return out;
  });
}

async function sequential<T>(count: number, fn: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < count; i++) out.push(await fn(i));
  return out;
}

async function oneStream(base: string, cookie: string, i: number) {
  const message = Array.from({ length: WORDS }, (_, w) => `s${i}w${w}`).join(" ");
  const t0 = performance.now();
  try {
    const start = await fetch(`${base}/api/runs`, {
      method: "POST",
      headers: { cookie, "content-type": "application/json" },
      body: JSON.stringify({ workflow: "demo-echo", input: { message, requireApproval: false, delayMs: DELAY_MS } }),
    });
    if (start.status !== 202) return { error: `start ${start.status}`, ttfe: 0, total: 0 };
    const { runId } = (await start.json()) as { runId: string };
    const res = await fetch(`${base}/api/runs/${runId}/stream`, { headers: { cookie } });
    if (res.status !== 200 || !res.body) return { error: `stream ${res.status}`, ttfe: 0, total: 0 };
    let ttfe = 0;
    let buffer = "";
    let text = "";
    let done = false;
    const decoder = new TextDecoder();
    const reader = res.body.getReader();
    for (;;) {
      const { done: ended, value: bytes } = await reader.read();
      if (ended) break;
      buffer += decoder.decode(bytes, { stream: true });
      let end = buffer.indexOf("\n\n");
      while (end >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf("\n\n");
        // A comment (the stream's opening line) carries no event.
        if (frame.startsWith(":")) continue;
        if (!ttfe) ttfe = performance.now() - t0;
        const data = frame.slice(frame.indexOf("data: ") + 6);
        if (data === "[DONE]") done = true;
        else {
          const chunk = JSON.parse(data) as { type: string; delta?: string };
          if (chunk.type === "text-delta") text += chunk.delta;
        }
      }
    }
    if (!done) return { error: "no [DONE]", ttfe, total: 0 };
    if (text !== message) return { error: "text differs", ttfe, total: 0 };
    return { error: null, ttfe, total: performance.now() - t0 };
  } catch (error) {
    return { error: (error as Error).message, ttfe: 0, total: 0 };
  }
}

await main();
