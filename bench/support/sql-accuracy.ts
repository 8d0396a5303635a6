// The analyst's accuracy for `npm run bench:sql`: the same harness as the accuracy test
// (tests/sql-eval), offline engine, one question at a time so the seconds per answer are a
// single member's. The app's database is PGlite with the demo warehouse embedded; the sql-eval
// databases live on the benchmark's PostgreSQL server.

import path from "node:path";
import { sql } from "drizzle-orm";
import { openWarehouse, setWarehouse } from "@/lib/datasources";
import { openDatabase, rowsOf, setActiveDatabase } from "@/lib/db";
import { seedDemo, seedDemoDataSources } from "@/lib/demo";
import { boot } from "@/lib/server";
import type { Graded } from "../../tests/sql-eval/support/grade";
import { runSqlEval, runWarehouseSet } from "../../tests/sql-eval/support/run";
import { BENCH_SERVER_URL } from "./server-database";

export async function measureAccuracy(): Promise<{ sqlEval: Graded[]; warehouse: Graded[] }> {
  process.env.BETTER_AUTH_SECRET ??= "bench-secret-bench-secret-bench-secret";
  // The sql-eval sources are on the local server: the operator's allowance, as in the tests.
  process.env.VIGIL_DATASOURCE_ALLOW_HOSTS ??= "127.0.0.1,localhost,::1";
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
    const [{ id: demoTenantId }] = rowsOf<{ id: string }>(
      await database.db.execute(sql`select id from tenants where slug = 'demo'`),
    );
    const warehouseSet = await runWarehouseSet({
      demoTenantId,
      run: async (statement) => (await warehouse.client.query<unknown[]>(statement, [], { rowMode: "array" })).rows,
      concurrency: 1,
    });
    const sqlEval = await runSqlEval({ database, demoTenantId, serverUrl: BENCH_SERVER_URL, concurrency: 1 });
    return { sqlEval, warehouse: warehouseSet };
  } finally {
    setWarehouse(undefined);
    await warehouse.close();
    setActiveDatabase(undefined);
    await database.close();
  }
}
