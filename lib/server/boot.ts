import { startConversationCleanup, WORKFLOWS } from "@/lib/agents";
import { startRetentionSweep, startTraceSequencer } from "@/lib/audit";
import {
  checkpointDecisionGuard,
  checkpointModificationChecks,
  closeCheckpointsOfFailedRun,
  openCheckpointCases,
  resumeEarlyDecisions,
  startCheckpointSweep,
} from "@/lib/checkpoints";
import { type Database, getDatabase, usingActiveDatabaseOverride } from "@/lib/db";
import { seedDemo, seedDemoDataSources, seedKnowledgeCorpus } from "@/lib/demo";
import { installDecisionGuard, installModificationChecks, startHitlSweeps } from "@/lib/hitl";
import { processSingleton } from "@/lib/process";
import { installInterruptBridge, installWorkflows, startRecoveryLoop } from "@/lib/runs";

export interface BootOptions {
  /** Start the background sweeps (trace sequencer, run recovery, HITL, checkpoint timeouts, the Data Analyst's conversation cleanup). Server processes do; tests drive them by hand. */
  sweeps?: boolean;
}

interface BootState {
  /** Databases already seeded in this process (an embedded database is seeded once per start). */
  seeded: WeakMap<Database, Promise<void>>;
  sweepsStarted: boolean;
}

// Process-wide (lib/process): Next.js may load this module twice (instrumentation and routes); both must
// share one boot.
const holder = processSingleton("boot", (): { boot?: BootState } => ({}));

function bootState(): BootState {
  holder.boot ??= { seeded: new WeakMap(), sweepsStarted: false };
  return holder.boot;
}

/**
 * The composition root: opens and migrates the database, seeds an empty embedded one, installs
 * the workflow catalog and starts the sweeps. Every entry point awaits it — route handlers,
 * pages, the MCP route, instrumentation, scripts and tests — so no request can reach a run, a
 * case or a decision before the process is wired. Idempotent and cheap after the first call.
 */
export async function boot(options: BootOptions = {}): Promise<Database> {
  installWorkflows(WORKFLOWS);
  installInterruptBridge(openCheckpointCases, resumeEarlyDecisions, closeCheckpointsOfFailedRun);
  installModificationChecks(checkpointModificationChecks());
  installDecisionGuard(checkpointDecisionGuard);
  const database = await getDatabase();
  await seedOnce(database);
  if (options.sweeps !== false) startSweeps();
  return database;
}

/** The embedded database is the zero-configuration demo: an empty one gets the demo tenants. */
function seedOnce(database: Database): Promise<void> {
  if (database.kind !== "pglite" || process.env.VIGIL_SEED === "off" || usingActiveDatabaseOverride()) {
    return Promise.resolve();
  }
  const { seeded } = bootState();
  let pending = seeded.get(database);
  if (!pending) {
    pending = (async () => {
      await seedDemo(database, { force: true, identity: process.env.AUTH_MODE === "supabase" ? "supabase" : "local" });
      await seedKnowledgeCorpus(database);
      await seedDemoDataSources(database);
    })();
    seeded.set(database, pending);
    // A failed seed is not remembered: the next request tries again.
    pending.catch(() => seeded.delete(database));
  }
  return pending;
}

function startSweeps(): void {
  const state = bootState();
  if (state.sweepsStarted) return;
  state.sweepsStarted = true;
  startTraceSequencer();
  startRetentionSweep();
  startRecoveryLoop();
  startHitlSweeps();
  startCheckpointSweep();
  startConversationCleanup();
}
