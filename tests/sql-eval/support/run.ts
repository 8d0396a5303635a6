// The whole measurement, shared by the accuracy test and `npm run bench:sql`: the sql-eval
// questions, each database loaded on the server and registered in a tenant of its own, and the
// warehouse questions on the demo tenant's embedded warehouse. Expects the app's database to be
// active and seeded, and the demo warehouse set (setWarehouse) and registered.

import postgres from "postgres";
import type { Database } from "@/lib/db";
import { principal } from "../../chat/support";
import { WAREHOUSE_QUESTIONS } from "../warehouse-questions";
import { orderMatters } from "./compare";
import { loadSqlEvalDatabases } from "./databases";
import { type EvalCase, type Graded, gradeAll, type RunSql } from "./grade";
import { loadSqlEvalQuestions } from "./questions";
import { registerSource, tenantWithAnalyst } from "./register";

export async function runSqlEval(options: {
  database: Database;
  demoTenantId: string;
  serverUrl: string;
  concurrency: number;
}): Promise<Graded[]> {
  const loaded = await loadSqlEvalDatabases(options.serverUrl);
  const questions = loadSqlEvalQuestions();
  const graded: Graded[] = [];
  // One database at a time: its tenant, its source, its questions.
  for (const db of loaded) {
    const tenantId = await tenantWithAnalyst(options.database, options.demoTenantId, `sqleval_${db.db}`);
    await registerSource(tenantId, {
      name: `sql-eval ${db.db}`,
      connectionString: db.readerUrl,
      allowedSchemas: ["public"],
    });
    const member = await principal(tenantId, "member");
    // The dataset's `instructions` are hints for whoever writes the SQL, not words a user types:
    // the analyst is asked the question alone.
    const cases: EvalCase[] = questions
      .filter((q) => q.db === db.db)
      .map((q) => ({
        group: q.db,
        category: q.category,
        question: q.question,
        query: q.query,
        ordered: orderMatters(q.question, q.category),
      }));
    const reference = postgres(db.adminUrl, { max: 2, onnotice: () => {} });
    const run: RunSql = async (sql) => (await reference.unsafe(sql).values()) as unknown[][];
    try {
      graded.push(...(await gradeAll(member.auth, cases, run, options.concurrency)));
    } finally {
      await reference.end();
    }
  }
  return graded;
}

export async function runWarehouseSet(options: {
  demoTenantId: string;
  /** Runs a reference statement on the embedded warehouse. */
  run: RunSql;
  concurrency: number;
}): Promise<Graded[]> {
  const member = await principal(options.demoTenantId, "member");
  const cases: EvalCase[] = WAREHOUSE_QUESTIONS.map((q) => ({
    group: /\b(northwind|chinook|pagila)\./.exec(q.query)?.[1] ?? "warehouse",
    category: q.category,
    question: q.question,
    query: q.query,
    ordered: q.ordered,
    before: q.before,
  }));
  return gradeAll(member.auth, cases, options.run, options.concurrency);
}
