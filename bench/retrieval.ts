// npm run bench:retrieval — BM25-in-SQL query latency over 10,000 knowledge chunks, on embedded
// PGlite and on a PostgreSQL server, through the application's own search path
// (`searchKnowledge`: one transaction as the app role under row-level security).
//
//   npx tsx bench/retrieval.ts                        (10,000 chunks, 400 queries)
//   BENCH_CHUNKS=2000 BENCH_QUERIES=100 npx tsx bench/retrieval.ts
//
// BENCH_DATABASE_URL (or TEST_DATABASE_URL) names the server; default
// postgres://postgres@127.0.0.1:5432/postgres. A fresh database is created there and dropped.

import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { type Database, getDatabase, rowsOf } from "@/lib/db";
import { KNOWLEDGE_CORPUS } from "@/lib/demo";
import { ingestDocument, maintainKnowledgeIndex, searchKnowledge, searchScopeOf } from "@/lib/rag";
import { fmt, machineRows, percentile } from "./support/machine";
import { benchTenant } from "./support/tenant";

const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 10_000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 400);
const WARMUP = 30;
const K = 10;
const SERVER_URL =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const DOMAINS = ["regulatory", "clinical", "heor", "safety", "quality"];
const GOALS = { pglite: 40, postgres: 20 } as const;

/** A small deterministic PRNG (mulberry32), so both databases get the same collection. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Text with the demo corpus's vocabulary and word order (a word-bigram chain trained on it),
 * plus a Zipf-distributed tail of made-up terms (product names, codes, rare jargon), so the
 * collection has both the corpus's frequent terms and a realistic long tail.
 */
class TextGenerator {
  private readonly next = new Map<string, string[]>();
  private readonly starts: string[] = [];
  private readonly rare: string[] = [];
  private rareCdf: number[] = [];

  constructor(private readonly random: () => number) {
    for (const docs of Object.values(KNOWLEDGE_CORPUS)) {
      for (const doc of docs) {
        for (const line of doc.markdown.split("\n")) {
          if (!line.trim() || line.startsWith("#")) continue;
          for (const sentence of line.split(/(?<=[.!?])\s+/)) {
            const words = sentence.split(/\s+/).filter(Boolean);
            if (words.length < 4) continue;
            this.starts.push(words[0]);
            for (let i = 0; i < words.length - 1; i++) {
              const list = this.next.get(words[i]) ?? [];
              list.push(words[i + 1]);
              this.next.set(words[i], list);
            }
          }
        }
      }
    }
    const syllables = ["ka", "lo", "ve", "tri", "zan", "mor", "pex", "qui", "dal", "sen", "rho", "bix", "tor", "fen"];
    let total = 0;
    for (let i = 0; i < 20_000; i++) {
      let word = "";
      const n = 2 + Math.floor(random() * 3);
      for (let s = 0; s < n; s++) word += syllables[Math.floor(random() * syllables.length)];
      this.rare.push(`${word}${i % 7 === 0 ? `-${Math.floor(random() * 900) + 100}` : ""}`);
      total += 1 / (i + 1);
      this.rareCdf.push(total);
    }
    this.rareCdf = this.rareCdf.map((x) => x / total);
  }

  private pick<T>(list: T[]): T {
    return list[Math.floor(this.random() * list.length)];
  }

  rareTerm(): string {
    const u = this.random();
    let lo = 0;
    let hi = this.rareCdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.rareCdf[mid] < u) lo = mid + 1;
      else hi = mid;
    }
    return this.rare[lo];
  }

  sentence(): string {
    const words = [this.pick(this.starts)];
    const length = 12 + Math.floor(this.random() * 18);
    while (words.length < length) {
      const options = this.next.get(words[words.length - 1]);
      const word = options && this.random() > 0.15 ? this.pick(options) : this.pick(this.starts).toLowerCase();
      words.push(this.random() < 0.06 ? this.rareTerm() : word);
    }
    return `${words.join(" ").replace(/[.!?]+$/, "")}.`;
  }

  paragraph(chars: number): string {
    const out: string[] = [];
    let size = 0;
    while (size < chars) {
      const s = this.sentence();
      out.push(s);
      size += s.length + 1;
    }
    return out.join(" ");
  }

  /** A Markdown document: a title and sections of one or two paragraphs. */
  document(sections: number): string {
    const title = `${this.rareTerm()} ${this.sentence().split(" ").slice(0, 4).join(" ").replace(/\.$/, "")}`;
    const parts = [`# ${title}`, "", this.paragraph(400)];
    for (let s = 0; s < sections; s++) {
      parts.push("", `## ${this.sentence().split(" ").slice(0, 5).join(" ").replace(/\.$/, "")}`, "");
      parts.push(this.paragraph(700 + Math.floor(this.random() * 900)));
      if (this.random() < 0.5) parts.push("", this.paragraph(300 + Math.floor(this.random() * 500)));
    }
    return parts.join("\n");
  }

  /** A question as people type them: a few words from a real chunk, or a corpus-style question. */
  query(chunkTexts: string[]): string {
    if (this.random() < 0.5) {
      const words = this.pick(chunkTexts)
        .replace(/[^\p{L}\p{N}\s-]/gu, " ")
        .split(/\s+/)
        .filter((w) => w.length > 3);
      const start = Math.floor(this.random() * Math.max(1, words.length - 8));
      return words.slice(start, start + 3 + Math.floor(this.random() * 6)).join(" ");
    }
    return this.pick(NATURAL_QUESTIONS);
  }
}

const NATURAL_QUESTIONS = [
  "What does a 510(k) need to show about substantial equivalence to a predicate?",
  "How long does FDA take to review a premarket approval application?",
  "when can a novel low risk device use the de novo pathway",
  "What is the difference between fast track and breakthrough therapy designation?",
  "Which medicines must go through the EMA centralised procedure?",
  "How is block randomisation different from stratified randomisation?",
  "double-dummy blinding technique",
  "interim analysis stopping rules for efficacy or futility",
  "how do I calculate the sample size for a survival endpoint",
  "what is a surrogate endpoint and when is it acceptable",
  "How are QALYs calculated from EQ-5D utilities?",
  "what does an ICER of 20000 per QALY mean",
  "NICE cost-effectiveness threshold per QALY",
  "budget impact analysis time horizon and perspective",
  "minimum criteria for a valid individual case safety report",
  "SUSAR reporting timelines for fatal cases",
  "What replaced the periodic safety update report?",
  "MedDRA preferred term and system organ class hierarchy",
  "proportional reporting ratio threshold for a signal",
  "elements to assure safe use in a REMS",
];

interface Loaded {
  tenantId: string;
  chunks: number;
  postings: number;
  terms: number;
  loadSeconds: number;
  maintenanceSeconds: number;
  chunkTexts: string[];
}

async function load(database: Database, label: string): Promise<Loaded> {
  const random = prng(20_251_122);
  const generator = new TextGenerator(random);
  const tenantId = await benchTenant(database, "Retrieval benchmark");
  const scope = { tenantId };
  const started = performance.now();
  const chunkTexts: string[] = [];
  let chunks = 0;
  let docs = 0;
  while (chunks < CHUNKS) {
    const primary = DOMAINS[docs % DOMAINS.length];
    const domains = random() < 0.2 ? [primary, DOMAINS[(docs + 1) % DOMAINS.length]] : [primary];
    const markdown = generator.document(4 + Math.floor(random() * 5));
    const { document } = await ingestDocument(
      scope,
      { format: "markdown", content: markdown, domains, externalId: `bench-${docs}` },
      { createdBy: "bench", embeddings: null },
    );
    if (random() < 0.2) chunkTexts.push(markdown.split("\n").filter((l) => l && !l.startsWith("#"))[0]);
    chunks += document.chunkCount;
    docs++;
    if (docs % 50 === 0) process.stderr.write(`${label}: ${chunks.toLocaleString("en-US")} chunks loaded\n`);
  }
  const loadSeconds = (performance.now() - started) / 1000;
  // What the application does on its own a moment after the last upload (and a server's
  // autovacuum too, where it is on): vacuum and analyse, so postings are read index-only.
  const maintenanceStarted = performance.now();
  await maintainKnowledgeIndex(database.db);
  const maintenanceSeconds = (performance.now() - maintenanceStarted) / 1000;
  const count = async (table: string) =>
    Number(
      rowsOf<{ n: string | number }>(
        await database.db.execute(
          sql`select count(*) as n from ${sql.identifier(table)} where tenant_id = ${tenantId}`,
        ),
      )[0].n,
    );
  return {
    tenantId,
    chunks: await count("knowledge_chunks"),
    postings: await count("knowledge_postings"),
    terms: await count("knowledge_terms"),
    loadSeconds,
    maintenanceSeconds,
    chunkTexts,
  };
}

interface Measured extends Loaded {
  kind: "pglite" | "postgres";
  version: string;
  samples: number[];
  scoped: number[];
  empty: number;
}

async function measure(database: Database, label: string): Promise<Measured> {
  const loaded = await load(database, label);
  const random = prng(7);
  const generator = new TextGenerator(random);
  const queries = Array.from({ length: WARMUP + QUERIES }, () => generator.query(loaded.chunkTexts));
  // Scopes as the product uses them: the whole tenant (the search API without a domain), one
  // domain, and an agent's domains plus the user guide (as for a question about the product).
  const scopes: (string[] | undefined)[] = [
    undefined,
    ["safety"],
    searchScopeOf(["regulatory", "clinical"], "How do I use Vigil?"),
  ];
  const scope = { tenantId: loaded.tenantId };
  const samples: number[] = [];
  const scoped: number[] = [];
  let empty = 0;
  for (let i = 0; i < queries.length; i++) {
    const domains = scopes[i % scopes.length];
    const start = performance.now();
    const result = await searchKnowledge(scope, { query: queries[i], k: K, domains }, { embeddings: null });
    const elapsed = performance.now() - start;
    if (i < WARMUP) continue;
    samples.push(elapsed);
    if (domains) scoped.push(elapsed);
    if (result.items.length === 0) empty++;
  }
  const version = rowsOf<{ v: string }>(await database.db.execute(sql`select version() as v`))[0].v;
  return {
    ...loaded,
    kind: database.kind,
    version: version.split(" on ")[0].split(",")[0],
    samples,
    scoped,
    empty,
  };
}

async function benchPglite(): Promise<Measured> {
  delete process.env.DATABASE_URL;
  process.env.VIGIL_DATA_DIR = "memory://";
  process.env.VIGIL_SEED = "off";
  const database = await getDatabase();
  try {
    return await measure(database, "pglite");
  } finally {
    await database.close();
  }
}

async function benchServer(): Promise<Measured | string> {
  const name = `vigil_bench_${randomBytes(5).toString("hex")}`;
  const admin = postgres(SERVER_URL, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database ${name}`);
  } catch (error) {
    await admin.end();
    return `Server PostgreSQL not measured: ${(error as Error).message}`;
  }
  await admin.end();
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  // A fresh getDatabase() for the server: the PGlite one is closed and forgotten first.
  process.env.DATABASE_URL = url.toString();
  const database = await getDatabase();
  try {
    return await measure(database, "server");
  } finally {
    await database.close();
    const dropper = postgres(SERVER_URL, { max: 1, onnotice: () => {} });
    await dropper.unsafe(`drop database if exists ${name} with (force)`);
    await dropper.end();
  }
}

function report(results: Measured[], notes: string[]): string {
  const n = (x: number) => x.toLocaleString("en-US");
  const rows = results.map((r) => {
    const p95 = percentile(r.samples, 95);
    const mean = r.samples.reduce((a, b) => a + b, 0) / r.samples.length;
    const goal = GOALS[r.kind];
    return (
      `| ${r.kind === "pglite" ? "embedded PGlite" : "server PostgreSQL"} | ${n(r.chunks)} | ${n(r.postings)} | ${n(r.samples.length)} | ` +
      `${fmt(percentile(r.samples, 50), 2)} | ${fmt(p95, 2)} | ${fmt(percentile(r.samples, 99), 2)} | ${fmt(percentile(r.scoped, 95), 2)} | ` +
      `${fmt(1000 / mean, 0)} | < ${goal} ms: ${p95 < goal ? "met" : "NOT met"} |`
    );
  });
  const facts: [string, string][] = results.map((r) => [
    r.kind === "pglite" ? "PGlite" : "PostgreSQL server",
    `${r.version}${r.kind === "pglite" ? ", in memory" : " (local, TCP)"}`,
  ]);
  const first = results[0];
  return [
    "# Retrieval benchmark",
    "",
    `Run ${new Date().toISOString()} with \`npm run bench:retrieval\`.`,
    "",
    machineRows(facts),
    "",
    `Workload: one tenant with ${first ? n(first.chunks) : CHUNKS} chunks (${first ? n(first.terms) : "?"} distinct terms) ` +
      "from generated Markdown documents — the demo corpus's vocabulary and word order (a word-bigram chain) plus a " +
      "Zipf-distributed tail of 20,000 made-up terms — in five domains, ingested through `ingestDocument`. " +
      `${n(QUERIES)} queries after ${WARMUP} warm-up ones, one at a time, top ${K}: half are 3–8 consecutive words of a ` +
      "chunk, half natural questions; scopes rotate between the whole tenant, one domain, and an agent's two domains " +
      "plus the guide. Each query is `searchKnowledge` as the API calls it: a transaction as `vigil_app` under " +
      "row-level security, Okapi BM25 (k1 = 1.2, b = 0.75) in one SQL statement, the chunks' text returned.",
    "",
    "| database | chunks | postings | queries | p50 ms | p95 ms | p99 ms | p95 with a domain scope ms | queries/s | goal (p95) |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ...rows,
    "",
    ...results.map(
      (r) =>
        `${r.kind === "pglite" ? "PGlite" : "Server"}: loading took ${fmt(r.loadSeconds, 1)} s ` +
        `(${fmt(r.chunks / r.loadSeconds, 0)} chunks/s), then VACUUM (ANALYZE) ${fmt(r.maintenanceSeconds, 1)} s; ` +
        `${r.empty} of ${r.samples.length} queries found nothing.`,
    ),
    ...notes.map((note) => `\n${note}`),
    "",
  ].join("\n");
}

async function main() {
  const results: Measured[] = [];
  const notes: string[] = [];
  results.push(await benchPglite());
  const server = await benchServer();
  if (typeof server === "string") notes.push(server);
  else results.push(server);
  const out = report(results, notes);
  console.log(out);
  const dir = path.join(process.cwd(), "bench", "results");
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, "retrieval.md"), out);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
