// `npm run hitl:rebuild` empties hitl_state and recomputes it from the ordered events, tenant by
// tenant. `npm run hitl:drift` compares a hash of the recomputed projection with the live one
// and exits 1 on drift, naming the cases that differ. `--tenant <slug>` limits either to one.
import { configFromEnv, openDatabase, schema, setActiveDatabase } from "@/lib/db";
import { projectionDrift, rebuildProjection } from "@/lib/hitl";

const mode = process.argv[2];
if (mode !== "rebuild" && mode !== "drift") {
  console.error("usage: tsx scripts/hitl-projection.ts rebuild|drift [--tenant <slug>]");
  process.exit(2);
}
const slugFlag = process.argv.indexOf("--tenant");
const onlySlug = slugFlag > 0 ? process.argv[slugFlag + 1] : undefined;

const database = await openDatabase(configFromEnv());
setActiveDatabase(database);
try {
  // The owner connection lists tenants; each tenant's work runs under its row-level security.
  const tenants = (await database.db.select().from(schema.tenants)).filter((t) => !onlySlug || t.slug === onlySlug);
  if (onlySlug && tenants.length === 0) throw new Error(`There is no tenant "${onlySlug}".`);
  if (tenants.length === 0) console.log("No tenants yet; nothing to do.");
  let drifted = false;
  for (const tenant of tenants) {
    const scope = { tenantId: tenant.id };
    if (mode === "rebuild") {
      const { cases, repaired } = await rebuildProjection(scope);
      console.log(`${tenant.slug}: rebuilt ${cases} cases; ${repaired.length} differed${listed(repaired)}`);
    } else {
      const drift = await projectionDrift(scope);
      drifted ||= drift.drifted;
      console.log(
        `${tenant.slug}: ${drift.drifted ? "DRIFT" : "ok"} live ${drift.liveHash.slice(0, 16)} rebuilt ${drift.rebuiltHash.slice(0, 16)}${listed(drift.cases)}`,
      );
    }
  }
  if (drifted) {
    console.error("The live projection differs from the events; run `npm run hitl:rebuild` to repair it.");
    process.exitCode = 1;
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 2;
} finally {
  setActiveDatabase(undefined);
  await database.close();
}

function listed(ids: string[]): string {
  if (ids.length === 0) return "";
  const shown = ids.slice(0, 10).join(", ");
  return ` (${shown}${ids.length > 10 ? `, … ${ids.length - 10} more` : ""})`;
}
