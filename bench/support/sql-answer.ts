// The SQL analyst end to end, offline engine: a question through POST /api/chat (routing, the
// join graph, SQL generation, the guard and validation, execution on the demo warehouse in
// PGlite, finalize, saving the answer), timed from the request to the stream's end.

import path from "node:path";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import * as chatRoute from "@/app/api/chat/route";
import { openWarehouse, setWarehouse } from "@/lib/datasources";
import { openDatabase, rowsOf, setActiveDatabase } from "@/lib/db";
import { seedDemo, seedDemoDataSources } from "@/lib/demo";
import { boot } from "@/lib/server";
import { createApiKey } from "@/lib/tenancy";
import type { Measure } from "./sql-report";

export const ANSWER_QUESTIONS = [
  "How many orders did each shipper deliver in 1997?",
  "Top 5 customers by total invoice amount",
  "List customers whose country is Germany",
  "Average film length by rating",
  "Number of tracks per genre",
  "How many rentals are there?",
];

/** Reads a chat turn's event stream to its end; says whether a `data-sql` part came. */
async function turn(auth: string, message: string): Promise<boolean> {
  const res = await chatRoute.POST(
    new Request("http://localhost/api/chat", {
      method: "POST",
      headers: { authorization: auth, "content-type": "application/json" },
      body: JSON.stringify({ agentId: "data-analyst", message }),
    }),
    undefined as never,
  );
  const text = await res.text();
  if (res.status !== 200) throw new Error(`the chat answered ${res.status}: ${text.slice(0, 200)}`);
  return text.includes('"type":"data-sql"');
}

export async function measureAnswers(samples: number, goalMs?: number): Promise<Measure> {
  process.env.BETTER_AUTH_SECRET ??= "bench-secret-bench-secret-bench-secret";
  const database = await openDatabase({ dataDir: "memory://" });
  setActiveDatabase(database);
  const datasetsDir =
    process.env.VIGIL_SQL_DATASETS_DIR ?? path.resolve(process.cwd(), "..", "shared", "datasets", "sql");
  const warehouse = await openWarehouse({ dataDir: "memory://", datasetsDir, key: "bench-warehouse-key" });
  setWarehouse(warehouse);
  try {
    await boot({ sweeps: false });
    await seedDemo(database, { force: true });
    await seedDemoDataSources(database);
    const [{ id: tenantId }] = rowsOf<{ id: string }>(
      await database.db.execute(sql`select id from tenants where slug = 'demo'`),
    );
    const key = await createApiKey({ tenantId }, { name: "bench", role: "member", createdBy: "bench" });
    const auth = `Bearer ${key.key}`;
    for (const q of ANSWER_QUESTIONS) {
      if (!(await turn(auth, q))) throw new Error(`no result for "${q}"`);
    }
    const times: number[] = [];
    for (let i = 0; i < samples; i++) {
      const started = performance.now();
      await turn(auth, ANSWER_QUESTIONS[i % ANSWER_QUESTIONS.length]);
      times.push(performance.now() - started);
    }
    return { name: "a question answered through `POST /api/chat`, request → stream end", samples: times, goalMs };
  } finally {
    setWarehouse(undefined);
    await warehouse.close();
    setActiveDatabase(undefined);
    await database.close();
  }
}
