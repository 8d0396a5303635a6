import { configFromEnv, getDatabase, usingActiveDatabaseOverride } from "@/lib/db";
import { type ServerWarehouse, serverWarehouse } from "./server-warehouse";
import { embeddedWarehouseChosen, warehouseOptionsFromEnv } from "./warehouse";

/**
 * Where this process's demo warehouse is: in the server database when Vigil runs on one (loaded
 * there on the demo source's first use, or checked, once per process), else the embedded PGlite
 * (null). A warehouse set with `setWarehouse` is used wherever the database is.
 */
export async function serverWarehouseOfProcess(): Promise<ServerWarehouse | null> {
  if (embeddedWarehouseChosen()) return null;
  // Without a server to run on, the database is not even opened here.
  if (!usingActiveDatabaseOverride() && !configFromEnv().url) return null;
  const database = await getDatabase();
  if (database.kind !== "postgres" || !database.url) return null;
  return serverWarehouse(database.url, () => {
    const { datasetsDir, key } = warehouseOptionsFromEnv();
    return { datasetsDir, key };
  });
}
