import { config, configProblems } from "@/lib/config";
import {
  type Database,
  DatabaseInUseError,
  DatabaseUnreadableError,
  exitIfDatabaseUnusable,
  getDatabase,
  isDatabaseUnavailable,
  usingActiveDatabaseOverride,
} from "@/lib/db";
import { prepareDemoJoinGraphs, seedDemo, seedDemoDataSources, seedKnowledgeCorpus } from "@/lib/demo";
import { DomainError } from "@/lib/errors";
import { logger } from "@/lib/log";
import { processSingleton } from "@/lib/process";
import { buildRuntime, installRuntime, type Runtime } from "./runtime";

export interface BootOptions {
  /** Start the background sweeps (trace sequencer, run recovery, HITL, checkpoint timeouts, the Data Analyst's conversation cleanup). Server processes do; tests drive them by hand. */
  sweeps?: boolean;
}

interface BootState {
  /** Databases already seeded in this process (an embedded database is seeded once per start). */
  seeded: WeakMap<Database, Promise<void>>;
  sweepsStarted: boolean;
  /** Whether the settings' problems were logged (once per process). */
  settingsChecked: boolean;
  /** The last failed start (migrations, seeding): how often in a row, and when to try again. */
  failedStart: { failures: number; retryAt: number } | null;
  /** Every seam and what fills it (runtime.ts), built once. */
  runtime?: Runtime;
}

// Process-wide (lib/process): Next.js may load this module twice (instrumentation and routes); both must
// share one boot.
const holder = processSingleton("boot", (): { boot?: BootState } => ({}));

function bootState(): BootState {
  holder.boot ??= { seeded: new WeakMap(), sweepsStarted: false, settingsChecked: false, failedStart: null };
  return holder.boot;
}

/**
 * The composition root: opens and migrates the database, seeds an empty embedded one, installs
 * the workflow catalog and starts the sweeps. Every entry point awaits it — route handlers,
 * pages, the MCP route, instrumentation, scripts and tests — so no request can reach a run, a
 * case or a decision before the process is wired. Idempotent and cheap after the first call.
 */
export async function boot(options: BootOptions = {}): Promise<Database> {
  checkSettings();
  const runtime = processRuntime();
  installRuntime(runtime);
  const database = await started(async () => {
    const opened = await getDatabase();
    await seedOnce(opened);
    return opened;
  });
  if (options.sweeps !== false) startSweeps(runtime);
  return database;
}

/** Seconds between two attempts to start after a failed one (`VIGIL_STARTUP_RETRY_S`, default 5). */
function startupRetryMs(): number {
  return config().startupRetrySeconds * 1000;
}

/**
 * Opening (and migrating) the database and seeding it, with a failure that does not stick: it
 * is logged, every request meanwhile answers 503 STARTUP_FAILED in the error shape (health
 * included) instead of a 500, and the next request after the retry pause tries again — another
 * instance may have finished what this one tripped over. A database that cannot be reached
 * keeps its own 503 (DATABASE_UNAVAILABLE), and an embedded folder that is locked or unreadable
 * its own error, which the server start turns into an exit.
 */
async function started(open: () => Promise<Database>): Promise<Database> {
  const state = bootState();
  const failed = state.failedStart;
  if (failed && Date.now() < failed.retryAt) throw startupFailed(failed.failures, failed.retryAt);
  try {
    const database = await open();
    if (state.failedStart) logger().info({ failures: state.failedStart.failures }, "started after failed attempts");
    state.failedStart = null;
    return database;
  } catch (error) {
    if (
      isDatabaseUnavailable(error) ||
      error instanceof DatabaseInUseError ||
      error instanceof DatabaseUnreadableError
    ) {
      throw error;
    }
    const failures = (failed?.failures ?? 0) + 1;
    const retryAt = Date.now() + startupRetryMs();
    state.failedStart = { failures, retryAt };
    logger().error(
      { err: error, attempt: failures, retry_in_s: startupRetryMs() / 1000 },
      `start-up failed (attempt ${failures}); trying again in ${startupRetryMs() / 1000} s`,
    );
    throw startupFailed(failures, retryAt);
  }
}

function startupFailed(failures: number, retryAt: number): DomainError {
  const retryAfter = Math.max(1, Math.ceil((retryAt - Date.now()) / 1000));
  return new DomainError(
    "unavailable",
    "STARTUP_FAILED",
    "This instance could not finish starting (see its log); it tries again shortly.",
    { failed_attempts: failures, retry_after: retryAfter },
  );
}

/**
 * The server's start (instrumentation): boots, and after a failure keeps trying in the
 * background until it succeeds, so the sweeps start even when no request comes. Never rejects:
 * a rejected start would fail every request of the process until it is restarted.
 */
export async function startServer(): Promise<Database | null> {
  try {
    return await boot();
  } catch (error) {
    exitIfDatabaseUnusable(error);
    if (!(error instanceof DomainError)) logger().error({ err: error }, "start-up failed; trying again shortly");
    const retry = setTimeout(() => void startServer(), startupRetryMs() || 1000);
    retry.unref();
    return null;
  }
}

/** The embedded database is the zero-configuration demo: an empty one gets the demo tenants. */
function seedOnce(database: Database): Promise<void> {
  if (database.kind !== "pglite" || !config().seed || usingActiveDatabaseOverride()) {
    return Promise.resolve();
  }
  const { seeded } = bootState();
  let pending = seeded.get(database);
  if (!pending) {
    pending = (async () => {
      await seedDemo(database, { force: true, identity: process.env.AUTH_MODE === "supabase" ? "supabase" : "local" });
      await seedKnowledgeCorpus(database);
      await seedDemoDataSources(database);
      // In the background: loading the demo warehouse takes seconds to a minute, which neither
      // the start nor any request should wait for; a view that comes first waits only for it.
      if (config().prepareJoinGraphs) {
        prepareDemoJoinGraphs(database).catch((error) =>
          logger().warn({ err: error }, "the demo join graphs were not built ahead; their first views build them"),
        );
      }
    })();
    seeded.set(database, pending);
    // A failed seed is not remembered: the next request tries again.
    pending.catch(() => seeded.delete(database));
  }
  return pending;
}

/**
 * Parses the settings once at start and says, one sentence each, which values were refused: the
 * process goes on with their defaults (as it always has), but the operator sees the typo at once.
 */
function checkSettings(): void {
  const state = bootState();
  if (state.settingsChecked) return;
  state.settingsChecked = true;
  for (const problem of configProblems()) logger().warn(problem);
}

function startSweeps(runtime: Runtime): void {
  const state = bootState();
  if (state.sweepsStarted) return;
  state.sweepsStarted = true;
  for (const sweep of runtime.sweeps) sweep.start();
}

/** The process's one runtime, built on the first boot. */
function processRuntime(): Runtime {
  const state = bootState();
  state.runtime ??= buildRuntime();
  return state.runtime;
}
