import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { fmt, machineRows, percentile } from "./support/machine";
import { measured, seedServer, withNextServer } from "./support/next-server";

const QUESTIONS = Number(process.env.BENCH_CHAT_QUESTIONS ?? 200);
const LEVELS = (process.env.BENCH_CHAT_CONCURRENCY ?? "1,32").split(",").map(Number);
const DATABASES = (process.env.BENCH_CHAT_DATABASES ?? "pglite,postgres").split(",");
const WARMUP = 10;
const serverUrl =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/** Topics of the demo corpus, with the agent that covers them. */
const TOPICS: [agent: string, topic: string][] = [
  ["fda-regulatory", "a 510(k) premarket notification"],
  ["fda-regulatory", "premarket approval (PMA)"],
  ["fda-regulatory", "a De Novo classification request"],
  ["fda-regulatory", "a New Drug Application"],
  ["fda-regulatory", "a Biologics License Application"],
  ["fda-regulatory", "accelerated approval"],
  ["fda-regulatory", "breakthrough therapy designation"],
  ["fda-regulatory", "an Investigational New Drug application"],
  ["fda-regulatory", "the EMA centralised procedure"],
  ["clinical-trial-designer", "the phases of clinical development"],
  ["clinical-trial-designer", "randomisation in clinical trials"],
  ["clinical-trial-designer", "blinding and masking"],
  ["clinical-trial-designer", "adaptive trial designs"],
  ["clinical-trial-designer", "choosing trial endpoints"],
  ["clinical-trial-designer", "sample size calculation"],
  ["clinical-trial-designer", "non-inferiority trials"],
  ["health-economist", "quality-adjusted life years"],
  ["health-economist", "the incremental cost-effectiveness ratio"],
  ["health-economist", "cost-effectiveness thresholds"],
  ["health-economist", "budget impact analysis"],
  ["health-economist", "decision-analytic models"],
  ["pharmacovigilance", "individual case safety reports"],
  ["pharmacovigilance", "SUSAR reporting"],
  ["pharmacovigilance", "periodic safety update reports"],
  ["pharmacovigilance", "MedDRA terminology"],
  ["pharmacovigilance", "signal detection"],
  ["pharmacovigilance", "risk management plans and REMS"],
];
/** Topics the corpus does not cover: the honest "found nothing" answer. */
const ABSENT: [string, string][] = [
  ["fda-regulatory", "zorblaxian quintessence flumoxide"],
  ["health-economist", "the migratory patterns of arctic terns"],
  ["clinical-trial-designer", "sourdough fermentation schedules"],
];
const TEMPLATES = [
  (t: string) => `What is ${t}?`,
  (t: string) => `Can you explain ${t}?`,
  (t: string) => `What are the key requirements for ${t}?`,
  (t: string) => `How does ${t} work in practice?`,
];

function questions(count: number): { agentId: string; message: string; absent: boolean }[] {
  const out: { agentId: string; message: string; absent: boolean }[] = [];
  for (let i = 0; out.length < count; i++) {
    // Every tenth question is about something absent from the corpus.
    const absent = i % 10 === 9;
    const [agentId, topic] = absent ? ABSENT[i % ABSENT.length] : TOPICS[i % TOPICS.length];
    out.push({ agentId, message: TEMPLATES[Math.floor(i / TOPICS.length) % TEMPLATES.length](topic), absent });
  }
  return out;
}

interface Outcome {
  error: string | null;
  ttft: number;
  total: number;
  cited: boolean;
}

interface Result {
  concurrency: number;
  ttft: number[];
  total: number[];
  errors: number;
  errorSamples: string[];
  cited: number;
  wallMs: number;
  peakRssMb: number;
}

async function main() {
  const results: [string, Result][] = [];
  const notes: string[] = [];
  if (DATABASES.includes("pglite")) {
    for (const r of await benchAgainst({ VIGIL_DATA_DIR: ".data/bench-chat", DATABASE_URL: "" }, 3311)) {
      results.push(["embedded PGlite", r]);
    }
  }
  if (DATABASES.includes("postgres")) {
    const dbName = `vigil_bench_chat_${Date.now()}`;
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    let ready = false;
    try {
      await admin.unsafe(`create database ${dbName}`);
      ready = true;
    } catch (error) {
      notes.push(`Server PostgreSQL not measured: ${(error as Error).message}`);
    }
    if (ready) {
      const url = new URL(serverUrl);
      url.pathname = `/${dbName}`;
      try {
        await seedServer(url.toString());
        for (const r of await benchAgainst({ DATABASE_URL: url.toString() }, 3312)) {
          results.push(["server PostgreSQL", r]);
        }
      } finally {
        await admin.unsafe(`drop database if exists ${dbName} with (force)`);
      }
    }
    await admin.end();
  }

  const version = JSON.parse(readFileSync("node_modules/next/package.json", "utf8")).version;
  const table = [
    "| database | concurrency | questions | errors | first text token p50 ms | p95 ms | answer complete p50 ms | p95 ms | answers with citations | throughput answers/s | peak server RSS MiB |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...results.map(
      ([name, r]) =>
        `| ${name} | ${r.concurrency} | ${r.ttft.length + r.errors} | ${r.errors} | ${fmt(percentile(r.ttft, 50))} | ${fmt(percentile(r.ttft, 95))} | ${fmt(percentile(r.total, 50))} | ${fmt(percentile(r.total, 95))} | ${r.cited} | ${fmt(((r.ttft.length + r.errors) / r.wallMs) * 1000, 1)} | ${fmt(r.peakRssMb, 0)} |`,
    ),
  ].join("\n");
  const single = results.filter(([, r]) => r.concurrency === 1);
  const verdict = single.map(([name, r]) => {
    const p50 = percentile(r.ttft, 50);
    return `- ${name}: first text token p50 at concurrency 1 is ${fmt(p50)} ms — goal (< 150 ms) ${p50 < 150 ? "**met**" : "**not met**"}.`;
  });
  const out = [
    "# Chat benchmark",
    "",
    `Run ${new Date().toISOString()} with \`npm run bench:chat\`.`,
    "",
    machineRows([
      ["Next.js", `${version} (\`next start\`, production build)`],
      ["engine", "offline (extractive, no model)"],
    ]),
    "",
    `Workload: ${QUESTIONS} questions per level (about the demo corpus's ${TOPICS.length} topics in ${TEMPLATES.length} phrasings across four agents, every tenth about a topic the corpus lacks), each a new consultation: \`POST /api/chat\` read to \`[DONE]\`. Concurrency 1 asks one question at a time; higher levels keep that many requests in flight. One server per database, warmed up with ${WARMUP} questions. Time to first text token runs from sending the request to the first \`text-delta\` chunk; complete is the stream's \`[DONE]\`. An error is a non-200 answer, a stream without \`[DONE]\` or without text.`,
    "",
    table,
    "",
    ...verdict,
    ...notes.map((s) => `\n${s}`),
    ...results.flatMap(([name, r]) =>
      r.errorSamples.length ? [`\nErrors on ${name} at ${r.concurrency}: ${r.errorSamples.join("; ")}`] : [],
    ),
    "",
  ].join("\n");
  console.log(out);
  writeFileSync(path.join("bench", "results", "chat.md"), out);
}

async function benchAgainst(env: Record<string, string>, port: number): Promise<Result[]> {
  // One member asks every question at once: lift the per-member cap on running runs.
  const offline = { ...env, VIGIL_MODEL_PROVIDER: "offline", VIGIL_MAX_RUNNING_RUNS: "1000" };
  return withNextServer(port, offline, ".data/bench-chat", async ({ base, cookie, child }) => {
    const asked = questions(QUESTIONS);
    for (const q of questions(WARMUP)) await ask(base, cookie, q);
    const out: Result[] = [];
    for (const concurrency of LEVELS) {
      const {
        result: outcomes,
        wallMs,
        peakRssMb,
      } = await measured(child, () => pool(asked, concurrency, (q) => ask(base, cookie, q)));
      const ok = outcomes.filter((o) => !o.error);
      out.push({
        concurrency,
        ttft: ok.map((o) => o.ttft),
        total: ok.map((o) => o.total),
        errors: outcomes.length - ok.length,
        errorSamples: [...new Set(outcomes.filter((o) => o.error).map((o) => o.error as string))].slice(0, 3),
        cited: ok.filter((o) => o.cited).length,
        wallMs,
        peakRssMb,
      });
    }
    return out;
  });
}

/** Runs `fn` over `items` with at most `concurrency` in flight, keeping the order of results. */
async function pool<T, R>(items: T[], concurrency: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return out;
}

async function ask(base: string, cookie: string, q: { agentId: string; message: string }): Promise<Outcome> {
  const t0 = performance.now();
  try {
    const res = await fetch(`${base}/api/chat`, {
      method: "POST",
      headers: { cookie, "content-type": "application/json" },
      body: JSON.stringify({ agentId: q.agentId, message: q.message }),
    });
    if (res.status !== 200 || !res.body) return { error: `chat ${res.status}`, ttft: 0, total: 0, cited: false };
    let ttft = 0;
    let buffer = "";
    let text = "";
    let done = false;
    const decoder = new TextDecoder();
    const reader = res.body.getReader();
    for (;;) {
      const { done: ended, value } = await reader.read();
      if (ended) break;
      buffer += decoder.decode(value, { stream: true });
      let end = buffer.indexOf("\n\n");
      while (end >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf("\n\n");
        // A comment (the stream's opening line) carries no event.
        if (frame.startsWith(":")) continue;
        const data = frame.slice(frame.indexOf("data: ") + 6);
        if (data === "[DONE]") done = true;
        else {
          const chunk = JSON.parse(data) as { type: string; delta?: string };
          if (chunk.type === "text-delta") {
            if (!ttft) ttft = performance.now() - t0;
            text += chunk.delta;
          }
        }
      }
    }
    if (!done) return { error: "no [DONE]", ttft, total: 0, cited: false };
    if (!text) return { error: "no text", ttft, total: 0, cited: false };
    return { error: null, ttft, total: performance.now() - t0, cited: /\[\d+\]/.test(text) };
  } catch (error) {
    return { error: (error as Error).message, ttft: 0, total: 0, cited: false };
  }
}

await main();
