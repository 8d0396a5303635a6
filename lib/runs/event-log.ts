import { and, asc, eq, gt, sql } from "drizzle-orm";
import { schema, type TenantScope, type Tx, withTenant } from "@/lib/db";
import { nudgeSequencer, type TraceEvent, traceIn } from "@/lib/trace";
import { type LogGrowth, runBus } from "./bus";
import type { RunEvent, RunEventBody, RunEventType, StepStatus } from "./contract";
import { wakeStreamsElsewhere } from "./wakeups";

/** The executor no longer holds the run (cancelled, or taken over after a stall). */
export class LeaseLostError extends Error {
  constructor(runId: string) {
    super(`run ${runId} is no longer held by this process`);
    this.name = "LeaseLostError";
  }
}

/**
 * Appends events in one transaction. Sequence numbers are allocated on the run row itself, so
 * any writer (the executor, a cancel from another instance) gets contiguous, unique numbers.
 * With `fence`, the append happens only while the run is running under that fencing token: a
 * cancelled or taken-over execution can never add to the log.
 */
export async function appendEvents(
  scope: TenantScope,
  runId: string,
  bodies: RunEventBody[],
  fence?: number,
  trace: TraceEvent[] = [],
): Promise<number> {
  if (bodies.length === 0 && trace.length === 0) return 0;
  // With a fence, even a trace-only write checks it: a lost execution adds nothing.
  const last = await withTenant(scope, (tx) => appendEventsIn(tx, scope, runId, bodies, { fence, trace }));
  announce(scope, runId, last, bodies, trace.length > 0);
  return last;
}

export interface AppendOptions {
  /** Append only while the run is running under this fencing token (its execution's claim). */
  fence?: number;
  /** The trace of what these events show: it commits with them (the outbox), or not at all. */
  trace?: readonly TraceEvent[];
}

/**
 * The same inside a caller's transaction, with the events' trace (sent alongside, pipelined on
 * a server connection). After the commit the caller calls `announce`.
 */
export async function appendEventsIn(
  tx: Tx,
  scope: TenantScope,
  runId: string,
  bodies: RunEventBody[],
  { fence, trace = [] }: AppendOptions = {},
): Promise<number> {
  const [last] = await Promise.all([appendLogIn(tx, scope, runId, bodies, fence), traceIn(tx, scope, trace)]);
  return last;
}

/**
 * After a commit that appended `bodies` (ending at `lastSeq`) and maybe trace: hands the events
 * to the run's streams in this process (and wakes those of other instances), nudges the sequencer.
 */
export function announce(
  scope: TenantScope,
  runId: string,
  lastSeq: number,
  bodies: readonly RunEventBody[],
  wroteTrace: boolean,
) {
  if (bodies.length > 0) {
    const first = lastSeq - bodies.length + 1;
    const growth: LogGrowth = { events: bodies.map((b, i) => ({ ...b, seq: first + i }) as RunEvent) };
    runBus().emit(runId, growth);
    wakeStreamsElsewhere(runId);
  }
  if (wroteTrace) nudgeSequencer(scope.tenantId);
}

async function appendLogIn(tx: Tx, scope: TenantScope, runId: string, bodies: RunEventBody[], fence?: number) {
  const r = schema.runs;
  // The fence is checked by the statement that allocates the sequence numbers, and the row lock
  // it takes holds until the commit: a claim cannot slip in between the check and the write. A
  // process paused before its commit does not keep the run: once its lease lapsed, the claim
  // ends the paused session (vigil_claim_stale_runs, migration 0043).
  const [row] = await tx
    .update(r)
    .set({ lastSeq: sql`${r.lastSeq} + ${bodies.length}`, updatedAt: new Date() })
    .where(
      fence === undefined ? eq(r.id, runId) : and(eq(r.id, runId), eq(r.fenceToken, fence), eq(r.status, "running")),
    )
    .returning({ lastSeq: r.lastSeq });
  if (!row && fence !== undefined) throw new LeaseLostError(runId);
  if (!row) throw new Error(`run ${runId} not found while appending events`);
  if (bodies.length === 0) return row.lastSeq;
  const first = row.lastSeq - bodies.length + 1;
  await tx.insert(schema.runEvents).values(
    bodies.map((b, i) => ({
      tenantId: scope.tenantId,
      runId,
      seq: first + i,
      type: b.type,
      payload: b.payload as Record<string, unknown>,
    })),
  );
  return row.lastSeq;
}

/** The run's whole log, inside a caller's transaction. */
export async function logIn(tx: Tx, runId: string): Promise<RunEvent[]> {
  const e = schema.runEvents;
  const rows = await tx
    .select({ seq: e.seq, type: e.type, payload: e.payload })
    .from(e)
    .where(eq(e.runId, runId))
    .orderBy(asc(e.seq));
  return rows as RunEvent[];
}

export async function readEvents(
  scope: TenantScope,
  runId: string,
  afterSeq: number,
  limit = 500,
): Promise<RunEvent[]> {
  const e = schema.runEvents;
  const rows = await withTenant(scope, (tx) =>
    tx
      .select({ seq: e.seq, type: e.type, payload: e.payload })
      .from(e)
      .where(and(eq(e.runId, runId), gt(e.seq, afterSeq)))
      .orderBy(asc(e.seq))
      .limit(limit),
  );
  return rows as RunEvent[];
}

const FLUSH_MS = 50;
const FLUSH_TOKENS = 64;

/**
 * The executor's buffered writer: consecutive text deltas of one part coalesce into one event,
 * and the buffer is written every 50 ms or 64 deltas, whichever comes first (a text part's
 * first delta at once).
 */
export class BufferedEventWriter {
  private buffer: RunEventBody[] = [];
  private traces: TraceEvent[] = [];
  private tokens = 0;
  private timer: NodeJS.Timeout | null = null;
  private chain: Promise<unknown> = Promise.resolve();
  private failure: unknown = null;
  private readonly answerParts = new Set<string>();

  constructor(
    private readonly scope: TenantScope,
    private readonly runId: string,
    /** The fencing token of the execution that writes (see appendLogIn). */
    private readonly fence: number,
  ) {}

  push(body: RunEventBody): void {
    const last = this.buffer.at(-1);
    if (
      last &&
      (body.type === "text" || body.type === "reasoning") &&
      last.type === body.type &&
      last.payload.partId === body.payload.partId
    ) {
      last.payload.delta += body.payload.delta;
    } else {
      this.buffer.push(structuredClone(body));
    }
    const text = body.type === "text" || body.type === "reasoning";
    if (text) this.tokens += 1;
    // An answer's first words go out at once: a reader should not wait for the rest.
    const opensAnswer = body.type === "text" && !this.answerParts.has(body.payload.partId);
    if (opensAnswer) this.answerParts.add(body.payload.partId);
    // Later text deltas coalesce for a moment; anything else (a step, a part, a source) is news a
    // client waits for — a run resumed after a decision, say — and goes out on the next turn.
    if (this.tokens >= FLUSH_TOKENS) this.flushInBackground();
    else if (!text || opensAnswer) this.flushSoon();
    else if (!this.timer) this.timer = setTimeout(() => this.flushInBackground(), FLUSH_MS);
  }

  /** A trace event, written in the same transaction as the events buffered with it. */
  trace(event: TraceEvent): void {
    this.traces.push({ ...event, occurredAt: event.occurredAt ?? new Date() });
    if (!this.timer) this.timer = setTimeout(() => this.flushInBackground(), FLUSH_MS);
  }

  /** Flushes once the current turn of the event loop is done (what it pushes goes together). */
  private flushSoon(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flushInBackground(), 0);
  }

  // A background write's failure is kept and rethrown by the executor's next explicit flush.
  private flushInBackground(): void {
    this.flush().catch(() => undefined);
  }

  /** Hands over what is buffered (to write now) and starts an empty buffer. */
  private take(): { batch: RunEventBody[]; traces: TraceEvent[] } {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const taken = { batch: this.buffer, traces: this.traces };
    this.buffer = [];
    this.traces = [];
    this.tokens = 0;
    return taken;
  }

  /**
   * Writes what is buffered and runs `work` in the same transaction (the checkpointer saving a
   * task's writes): both commit or neither does. Rejects if this or any earlier write failed.
   */
  async flushWith(work: (tx: Tx) => Promise<void>): Promise<void> {
    const { batch, traces } = this.take();
    const written = this.chain.then(async () => {
      if (this.failure) throw this.failure;
      try {
        const last = await withTenant(this.scope, async (tx) => {
          // With the fence checked even when nothing is buffered: a lost execution saves nothing.
          const seq = await appendEventsIn(tx, this.scope, this.runId, batch, { fence: this.fence, trace: traces });
          await work(tx);
          return seq;
        });
        announce(this.scope, this.runId, last, batch, traces.length > 0);
      } catch (error) {
        this.failure = error;
        throw error;
      }
    });
    this.chain = written.catch(() => undefined);
    await written;
  }

  /** Resolves once the writes already started have finished (a failure is kept for `flush`). */
  async settled(): Promise<void> {
    await this.chain.catch(() => undefined);
  }

  /** Writes what is buffered; rejects if any earlier write failed. */
  async flush(): Promise<void> {
    const { batch, traces } = this.take();
    this.chain = this.chain.then(async () => {
      if ((batch.length === 0 && traces.length === 0) || this.failure) return;
      try {
        await appendEvents(this.scope, this.runId, batch, this.fence, traces);
      } catch (error) {
        this.failure = error;
      }
    });
    await this.chain;
    if (this.failure) throw this.failure;
  }

  /** Forgets what is buffered (the run was cancelled or lost its lease). */
  discard(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.buffer = [];
    this.traces = [];
    this.tokens = 0;
  }
}

/** The text and reasoning parts of dead attempts the run's log names (its `supersede` events). */
export async function supersededParts(scope: TenantScope, runId: string): Promise<Set<string>> {
  const e = schema.runEvents;
  const rows = await withTenant(scope, (tx) =>
    tx
      .select({ payload: e.payload })
      .from(e)
      .where(and(eq(e.runId, runId), eq(e.type, "supersede"))),
  );
  return new Set(rows.flatMap((row) => (row.payload as { partIds: string[] }).partIds));
}

/**
 * What deadAttemptParts reads of an event: its type, and the fields that tell parts and
 * boundaries apart. Every RunEvent is one; deadPartsOf reads only these from the database.
 */
export type PartBoundaryEvent =
  | { type: "step"; payload: { node: string; status: StepStatus } }
  | { type: "text" | "reasoning"; payload: { partId: string } }
  | { type: "supersede"; payload: { partIds: string[] } }
  | { type: Exclude<RunEventType, "step" | "text" | "reasoning" | "supersede"> };

/**
 * The text and reasoning parts an execution that died mid-step left in `log`: those written
 * after the run's last boundary (a step that ended, a stop for a person, a decision, a status).
 * A step's end commits with its result, so a part after the last end belongs to a step that
 * runs again after recovery. Parts already superseded are not named twice.
 */
export function deadAttemptParts(log: readonly PartBoundaryEvent[]): string[] {
  const already = new Set(log.flatMap((e) => (e.type === "supersede" ? e.payload.partIds : [])));
  let dead: string[] = [];
  for (const event of log) {
    const boundary =
      (event.type === "step" && event.payload.status !== "running" && event.payload.node !== "recovery") ||
      event.type === "interrupt" ||
      event.type === "resume" ||
      event.type === "status";
    if (boundary) dead = [];
    else if ((event.type === "text" || event.type === "reasoning") && !dead.includes(event.payload.partId)) {
      dead.push(event.payload.partId);
    }
  }
  return dead.filter((partId) => !already.has(partId));
}

/**
 * The parts the run's last, dead execution left mid-step (deadAttemptParts of its whole log),
 * read without the text itself: only what tells parts and boundaries apart.
 */
export async function deadPartsOf(scope: TenantScope, runId: string): Promise<string[]> {
  const e = schema.runEvents;
  const rows = await withTenant(scope, (tx) =>
    tx
      .select({
        type: e.type,
        partId: sql<string | null>`${e.payload}->>'partId'`,
        node: sql<string | null>`${e.payload}->>'node'`,
        status: sql<string | null>`${e.payload}->>'status'`,
        partIds: sql<string[] | null>`case when ${e.type} = 'supersede' then ${e.payload}->'partIds' end`,
      })
      .from(e)
      .where(eq(e.runId, runId))
      .orderBy(asc(e.seq)),
  );
  const log = rows.map((row): PartBoundaryEvent => {
    const type = row.type as RunEventType;
    if (type === "step") return { type, payload: { node: row.node ?? "", status: row.status as StepStatus } };
    if (type === "text" || type === "reasoning") return { type, payload: { partId: row.partId ?? "" } };
    if (type === "supersede") return { type, payload: { partIds: row.partIds ?? [] } };
    return { type };
  });
  return deadAttemptParts(log);
}
