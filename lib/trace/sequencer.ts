import { asc, desc, eq, inArray, sql } from "drizzle-orm";
import { config } from "@/lib/config";
import { rowsOf, schema, withAppRole, withTenant } from "@/lib/db";
import { logger } from "@/lib/log";
import { processSingleton, startSweep, stopSweep, sweepInProgress } from "@/lib/process";
import { type ChainedEvent, chainHash, GENESIS_HASH, HASH_VERSION } from "./chain";
import { lockChain } from "./chain-lock";
import { addToSessionMetrics } from "./session-metrics";
import { traceSink } from "./sink";

const t = schema.executionTrace;
const o = schema.executionTraceOutbox;

/** Outbox rows chained per transaction: long enough to amortise the lock, short enough to hold it briefly. */
const BATCH = 500;
/** How long nudges gather before they are served: a burst of commits is chained in one pass. */
const NUDGE_DELAY_MS = 50;

/**
 * Moves the oldest outbox rows of a tenant into its chain: the chain lock (lockChain, the key every
 * trace writer has used) serialises sequencers of one tenant across processes, and the insert
 * into the trace and the delete from the outbox commit together, so a crash at any point leaves
 * each event either still in the outbox or chained, never both and never neither. The outbox
 * carries the trace's CHECKs, so a row that got into it cannot be refused here and block the
 * tenant's chain.
 */
async function chainBatch(tenantId: string): Promise<number> {
  return withTenant({ tenantId }, async (tx) => {
    await lockChain(tx, tenantId);
    const [pending, [head]] = await Promise.all([
      tx.select().from(o).where(eq(o.tenantId, tenantId)).orderBy(asc(o.id)).limit(BATCH),
      tx.select({ seq: t.seq, hash: t.hash }).from(t).where(eq(t.tenantId, tenantId)).orderBy(desc(t.seq)).limit(1),
    ]);
    if (pending.length === 0) return 0;
    let seq = head?.seq ?? 0;
    let prevHash = head?.hash ?? GENESIS_HASH;
    const rows = pending.map(({ id: _outboxId, ...event }) => {
      seq += 1;
      const chained: ChainedEvent = { ...event, seq, hashVersion: HASH_VERSION };
      const hash = chainHash(prevHash, chained);
      const row = { ...chained, prevHash, hash };
      prevHash = hash;
      return row;
    });
    await tx.insert(t).values(rows);
    await addToSessionMetrics(tx, tenantId, rows[0].seq, seq);
    // By id, not by range: a row with a lower id may have committed after the select above.
    await tx.delete(o).where(
      inArray(
        o.id,
        pending.map((row) => row.id),
      ),
    );
    return pending.length;
  });
}

async function chainTenant(tenantId: string): Promise<number> {
  let total = 0;
  for (;;) {
    const moved = await chainBatch(tenantId);
    total += moved;
    if (moved < BATCH) return total;
  }
}

/** The tenants with events in the outbox, found across tenants by a SECURITY DEFINER function. */
async function tenantsWithPending(): Promise<string[]> {
  const result = await withAppRole((tx) => tx.execute(sql`select tenant_id from vigil_trace_outbox_tenants()`));
  return rowsOf<{ tenant_id: string }>(result).map((row) => row.tenant_id);
}

/**
 * Chains every outbox row of the tenant (or of every tenant) now and resolves when done, with
 * the number of rows chained. One tenant's failure does not keep the others waiting: it is
 * thrown after they are chained.
 */
export async function sequenceTrace(tenantId?: string): Promise<number> {
  if (tenantId !== undefined) return chainTenant(tenantId);
  let total = 0;
  const failures: unknown[] = [];
  for (const tenant of await tenantsWithPending()) {
    try {
      total += await chainTenant(tenant);
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length === 1) throw failures[0];
  if (failures.length > 1) throw new AggregateError(failures, `trace sequencing failed for ${failures.length} tenants`);
  return total;
}

interface SequencerState {
  nudged: Set<string>;
  nudgeTimer?: NodeJS.Timeout;
  draining?: Promise<void>;
}

// Process-wide (lib/process) so that Next.js module reloads share one sequencer per process.
const state = () => processSingleton("trace-sequencer", (): SequencerState => ({ nudged: new Set() }));

function logFailure(error: unknown): void {
  logger().error({ err: error }, "trace sequencing failed; the events stay in the outbox for the next sweep");
}

function scheduleDrain(): void {
  const s = state();
  if (s.nudgeTimer || s.draining || s.nudged.size === 0) return;
  s.nudgeTimer = setTimeout(drainNudged, NUDGE_DELAY_MS);
  s.nudgeTimer.unref?.();
}

function drainNudged(): Promise<void> {
  const s = state();
  clearTimeout(s.nudgeTimer);
  s.nudgeTimer = undefined;
  const tenants = [...s.nudged];
  s.nudged.clear();
  s.draining = (async () => {
    for (const tenantId of tenants) await chainTenant(tenantId).catch(logFailure);
  })().finally(() => {
    s.draining = undefined;
    scheduleDrain();
  });
  return s.draining;
}

/**
 * Asks this process's sequencer to chain the tenant's outbox soon (call after the commit).
 * Nudges for one tenant coalesce; a failure is logged and the periodic sweep retries it.
 */
export function nudgeSequencer(tenantId: string): void {
  const sink = traceSink();
  if (sink) {
    sink.nudge(tenantId);
    return;
  }
  state().nudged.add(tenantId);
  scheduleDrain();
}

/** Serves the nudges already made, at once, and waits for any pass in progress. */
async function settleNudges(): Promise<void> {
  const s = state();
  while (s.draining || s.nudged.size > 0) {
    if (s.draining) await s.draining;
    else await drainNudged();
  }
}

const TRACE_SWEEP = "trace sequencer";

/**
 * Starts the periodic sweep (every VIGIL_TRACE_SEQUENCE_MS, default 1000): it chains what
 * nudges missed, such as the events of a process that died between its commit and its nudge.
 * Idempotent; the first sweep runs at once.
 */
export function startTraceSequencer(): void {
  startSweep({
    name: TRACE_SWEEP,
    everyMs: config().traceSequenceMs,
    run: sequenceTrace,
  });
}

export function stopTraceSequencer(): void {
  void stopSweep(TRACE_SWEEP);
}

/**
 * Chains everything committed so far and waits for it: for shutdown and tests. Serves pending
 * nudges first, so none fires after the caller has moved on (closed its database, say).
 */
export async function drainTrace(): Promise<number> {
  await settleNudges();
  await sweepInProgress(TRACE_SWEEP);
  return sequenceTrace();
}
