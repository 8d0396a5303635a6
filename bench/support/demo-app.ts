// The app as the SQL benchmarks use it: Vigil's database in memory (PGlite), booted and seeded
// with the demo tenants, and the demo warehouse embedded and registered as their source.

import path from "node:path";
import { sql } from "drizzle-orm";
import { openWarehouse, setWarehouse } from "@/lib/datasources";
import { type Database, openDatabase, rowsOf, setActiveDatabase } from "@/lib/db";
import { seedDemo, seedDemoDataSources } from "@/lib/demo";
import { boot } from "@/lib/server";

export interface DemoApp {
  database: Database;
  warehouse: Awaited<ReturnType<typeof openWarehouse>>;
  demoTenantId: string;
}

/** Runs `work` against a fresh demo app, and closes it whatever happens. */
export async function withDemoApp<T>(work: (app: DemoApp) => Promise<T>): Promise<T> {
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
    const [{ id: demoTenantId }] = rowsOf<{ id: string }>(
      await database.db.execute(sql`select id from tenants where slug = 'demo'`),
    );
    return await work({ database, warehouse, demoTenantId });
  } finally {
    setWarehouse(undefined);
    await warehouse.close();
    setActiveDatabase(undefined);
    await database.close();
  }
}
