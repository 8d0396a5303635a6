// Applies the retention policy: npm run retention -- [--tenant <slug>] [--as-of <ISO time>] [--dry-run]
import { parseArgs } from "node:util";
import { applyRetention, retentionTenants } from "@/lib/audit";
import type { RetentionRemoved } from "@/lib/audit/contract";
import { DatabaseInUseError } from "@/lib/db";
import { boot } from "@/lib/server";

const USAGE = "Usage: npm run retention -- [--tenant <slug>] [--as-of <ISO time>] [--dry-run]";

const { values } = parseArgs({
  options: {
    tenant: { type: "string" },
    "as-of": { type: "string" },
    "dry-run": { type: "boolean", default: false },
    help: { type: "boolean", default: false },
  },
});

function summary(removed: RetentionRemoved): string {
  return [
    `${removed.trace} trace events (${removed.tracePhi} with PHI, ${removed.traceRanges.length} ranges)`,
    `${removed.checkpoints} checkpoints (${removed.checkpointWrites} pending writes, ${removed.checkpointBlobs} blobs)`,
    `${removed.evidence} evidence chains`,
  ].join(", ");
}

async function main(): Promise<number> {
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const now = values["as-of"] ? new Date(values["as-of"]) : new Date();
  if (Number.isNaN(now.getTime())) {
    console.error(`--as-of must be an ISO time, such as 2031-01-15T02:00:00Z.\n${USAGE}`);
    return 2;
  }
  await boot({ sweeps: false });
  const tenants = (await retentionTenants()).filter((t) => !values.tenant || t.slug === values.tenant);
  if (tenants.length === 0) {
    console.error(`No tenant with slug "${values.tenant}".`);
    return 1;
  }
  const dryRun = values["dry-run"];
  for (const tenant of tenants) {
    const scope = { tenantId: tenant.tenantId };
    if (dryRun) {
      const preview = await applyRetention(scope, { now, trigger: "cli", actor: null, dryRun: true });
      console.log(`${tenant.slug}: would remove ${summary(preview.removed)} (as of ${preview.asOf}).`);
      continue;
    }
    const run = await applyRetention(scope, { now, trigger: "cli", actor: null });
    const closed = run.closedHash ? `; closes ${run.closedHash}` : "";
    console.log(
      `${tenant.slug}: removed ${run.removed ? summary(run.removed) : "nothing"}; retention event #${run.traceSeq}${closed}.`,
    );
  }
  return 0;
}

const code = await main().catch((error) => {
  if (!(error instanceof DatabaseInUseError)) throw error;
  console.error(
    `The embedded database in ${error.dataDir} is in use by ${error.holder}: use "Apply now" under Audit → Retention (signed in as an admin), or stop the server and run npm run retention again.`,
  );
  process.exit(1);
});
await (await boot({ sweeps: false })).close();
process.exit(code);
