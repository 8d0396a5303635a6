// The trace writer Vigil had before the outbox, kept as the benchmark's peer: it buffers events
// in process memory and chains them 50 ms later, off the run's transaction. It loses what it
// holds when the process dies, which is why lib/audit no longer works this way; the benchmark
// measures what the outbox's durability costs per run against it.

import { randomUUID } from "node:crypto";
import { desc, sql } from "drizzle-orm";
import { schema, withTenant } from "@/lib/db";
import { type ChainedEvent, chainHash, GENESIS_HASH, HASH_VERSION, type TraceEvent, toOutboxRows } from "@/lib/trace";

export type LegacyTraceEvent = TraceEvent & { tenantId: string };

const FLUSH_INTERVAL_MS = 50;
const FLUSH_SIZE = 200;
const MAX_BUFFERED = 50_000;
const MAX_ATTEMPTS = 20;

/**
 * Buffers trace events and writes them in batches, one transaction per tenant, so tracing
 * never puts a database round trip on a run's hot path. Chain order is serialised per tenant
 * with the sequencer's advisory lock, so its rows interleave validly with the outbox's.
 */
export class LegacyTraceBuffer {
  private buffer: LegacyTraceEvent[] = [];
  private failures = 0;
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  record(event: LegacyTraceEvent): void {
    if (this.buffer.length >= MAX_BUFFERED) {
      console.error("[bench] legacy trace buffer full; dropping the oldest event");
      this.buffer.shift();
    }
    this.buffer.push({ ...event, occurredAt: event.occurredAt ?? new Date() });
    if (this.buffer.length >= FLUSH_SIZE) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), FLUSH_INTERVAL_MS);
      this.timer.unref?.();
    }
  }

  /** Writes everything recorded so far; resolves when it is durable. */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    this.flushing = this.flushing.then(() => this.writeBuffered());
    return this.flushing;
  }

  private async writeBuffered(): Promise<void> {
    if (this.buffer.length === 0) return;
    const batch = this.buffer;
    this.buffer = [];
    const byTenant = new Map<string, LegacyTraceEvent[]>();
    for (const event of batch) {
      const list = byTenant.get(event.tenantId) ?? [];
      list.push(event);
      byTenant.set(event.tenantId, list);
    }
    for (const [tenantId, events] of byTenant) {
      try {
        await appendChained(tenantId, events);
        this.failures = 0;
      } catch (error) {
        this.failures += 1;
        if (this.failures > MAX_ATTEMPTS) {
          console.error(
            `[bench] legacy trace write failed ${MAX_ATTEMPTS} times; dropping ${events.length} events`,
            error,
          );
          this.failures = 0;
          continue;
        }
        console.error("[bench] legacy trace write failed; will retry", error);
        this.buffer.unshift(...events);
        if (!this.timer) {
          this.timer = setTimeout(() => void this.flush(), 1000);
          this.timer.unref?.();
        }
      }
    }
  }
}

/** Chains the events straight into the trace, in the outbox sequencer's current hash form. */
async function appendChained(tenantId: string, events: LegacyTraceEvent[]): Promise<void> {
  const t = schema.executionTrace;
  const scope = { tenantId };
  const fields = toOutboxRows(scope, events);
  await withTenant(scope, async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`vigil.trace:${tenantId}`}, 0))`);
    const [head] = await tx.select({ seq: t.seq, hash: t.hash }).from(t).orderBy(desc(t.seq)).limit(1);
    let seq = head?.seq ?? 0;
    let prevHash = head?.hash ?? GENESIS_HASH;
    const rows = fields.map((event) => {
      seq += 1;
      const chained: ChainedEvent = {
        ...event,
        traceId: randomUUID(),
        seq,
        hashVersion: HASH_VERSION,
        runId: event.runId ?? null,
        sessionId: event.sessionId ?? null,
        requestId: event.requestId ?? null,
        nodeName: event.nodeName ?? null,
        eventData: event.eventData ?? {},
        eventDurationMs: event.eventDurationMs ?? null,
        eventSuccess: event.eventSuccess ?? true,
        eventError: event.eventError ?? null,
        agentId: event.agentId ?? null,
        agentLevel: event.agentLevel ?? null,
        userId: event.userId ?? null,
        actorId: event.actorId ?? null,
        tokensUsed: event.tokensUsed ?? null,
        // As numeric(12, 6) will store it, or the hash would cover digits the row does not keep.
        costUsd: event.costUsd == null ? null : Number(event.costUsd.toFixed(6)),
        cacheHit: event.cacheHit ?? null,
        dataClassification: event.dataClassification ?? null,
        phiAccessed: event.phiAccessed ?? false,
        phiFields: event.phiFields ?? null,
        metadata: event.metadata ?? {},
      };
      const hash = chainHash(prevHash, chained);
      const row = { ...chained, prevHash, hash };
      prevHash = hash;
      return row;
    });
    await tx.insert(t).values(rows);
  });
}
