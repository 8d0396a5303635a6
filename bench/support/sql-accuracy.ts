// The analyst's accuracy for `npm run bench:sql`: the same harness as the accuracy test
// (tests/sql-eval), offline engine, one question at a time so the seconds per answer are a
// single member's. The app's database is PGlite with the demo warehouse embedded; the sql-eval
// databases live on the benchmark's PostgreSQL server.

import type { Graded } from "../../tests/sql-eval/support/grade";
import { runSqlEval, runWarehouseSet } from "../../tests/sql-eval/support/run";
import { withDemoApp } from "./demo-app";
import { BENCH_SERVER_URL } from "./server-database";

export async function measureAccuracy(): Promise<{ sqlEval: Graded[]; warehouse: Graded[] }> {
  // The sql-eval sources are on the local server: the operator's allowance, as in the tests.
  process.env.VIGIL_DATASOURCE_ALLOW_HOSTS ??= "127.0.0.1,localhost,::1";
  return withDemoApp(async ({ database, warehouse, demoTenantId }) => {
    const warehouseSet = await runWarehouseSet({
      demoTenantId,
      run: async (statement) => (await warehouse.client.query<unknown[]>(statement, [], { rowMode: "array" })).rows,
      concurrency: 1,
    });
    const sqlEval = await runSqlEval({ database, demoTenantId, serverUrl: BENCH_SERVER_URL, concurrency: 1 });
    return { sqlEval, warehouse: warehouseSet };
  });
}
