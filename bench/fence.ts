// What fencing costs a checkpoint save: the same save with and without the run's fencing check
// (vigil_fence_check, sent in the same round trip and run in the same transaction), alternating
// so both see the same load, on the server PostgreSQL and on embedded PGlite.
//
//   npx tsx --import ./scripts/server-only-node.mjs bench/fence.ts      (BENCH_SAVES=400)
//
// BENCH_DATABASE_URL (or TEST_DATABASE_URL) names the server; default postgres://postgres@127.0.0.1:5432/postgres.

import { mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { emptyCheckpoint } from "@langchain/langgraph-checkpoint";
import { sql } from "drizzle-orm";
import { type Database, openDatabase, schema, setActiveDatabase } from "@/lib/db";
import { DrizzleCheckpointSaver } from "@/lib/graph-saver";
import { createServerDatabase } from "./support/server-database";

const SAVES = Number(process.env.BENCH_SAVES ?? 400);

function quantiles(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { p50: at(0.5), p95: at(0.95) };
}

async function measure(database: Database): Promise<{ plain: number[]; fenced: number[] }> {
  setActiveDatabase(database);
  const [tenant] = await database.db.insert(schema.tenants).values({ slug: "bench-fence", name: "Bench" }).returning();
  const [run] = await database.db
    .insert(schema.runs)
    .values({
      tenantId: tenant.id,
      workflow: "demo-echo",
      threadId: "bench-fence",
      createdBy: "bench",
      status: "running",
    })
    .returning();
  const saver = new DrizzleCheckpointSaver({ tenantId: tenant.id });
  const config = { configurable: { thread_id: "bench-fence", checkpoint_ns: "" } };
  const guard = sql`select vigil_fence_check(${run.id}::uuid, ${run.fenceToken}::integer)`;
  const out = { plain: [] as number[], fenced: [] as number[] };
  for (let i = 0; i < SAVES + 20; i++) {
    const fenced = i % 2 === 1;
    const started = performance.now();
    await saver.putGuarded(
      fenced ? guard : undefined,
      config,
      emptyCheckpoint(),
      { source: "loop", step: i, parents: {} },
      {},
    );
    // The first saves warm the connections and the prepared statements.
    if (i >= 20) (fenced ? out.fenced : out.plain).push(performance.now() - started);
  }
  setActiveDatabase(undefined);
  return out;
}

const rows: string[] = [];
const server = await createServerDatabase("bench_fence");
try {
  const database = await openDatabase({ url: server.url });
  const { plain, fenced } = await measure(database);
  await database.close();
  rows.push(row("postgres", plain, fenced));
} finally {
  await server.drop();
}
const embedded = await openDatabase({ dataDir: "memory://" });
const { plain, fenced } = await measure(embedded);
await embedded.close();
rows.push(row("pglite", plain, fenced));

function row(name: string, plain: number[], fenced: number[]): string {
  const a = quantiles(plain);
  const b = quantiles(fenced);
  const f = (n: number) => n.toFixed(2);
  return `| ${name} | ${plain.length} | ${f(a.p50)} | ${f(a.p95)} | ${f(b.p50)} | ${f(b.p95)} |`;
}

const report = [
  "# Fencing: checkpoint save latency (ms)",
  "",
  `${new Date().toISOString()}, ${os.cpus().length} CPUs, Node ${process.version}; saves of an empty checkpoint, plain and fenced alternating.`,
  "",
  "| database | saves each | plain p50 | plain p95 | fenced p50 | fenced p95 |",
  "| --- | --- | --- | --- | --- | --- |",
  ...rows,
  "",
].join("\n");
console.log(report);
await mkdir(path.join("bench", "results"), { recursive: true });
await writeFile(path.join("bench", "results", "fence.md"), report);
process.exit(0);
