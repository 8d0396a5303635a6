import { desc, sql } from "drizzle-orm";
import { schema, withTenant } from "@/lib/db";
import { chainHash, GENESIS_HASH } from "./chain";
import type { ChainedEvent, TraceEvent } from "./types";

const FLUSH_INTERVAL_MS = 50;
const FLUSH_SIZE = 200;
const MAX_BUFFERED = 50_000;
const MAX_ATTEMPTS = 20;

/**
 * Buffers trace events and writes them in batches, one transaction per tenant, so tracing
 * never puts a database round trip on a run's hot path. Chain order is serialised per tenant
 * with an advisory lock, so several processes can write one tenant's chain safely.
 */
export class TraceWriter {
  private buffer: TraceEvent[] = [];
  private failures = 0;
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  record(event: TraceEvent): void {
    if (this.buffer.length >= MAX_BUFFERED) {
      console.error("[vigil] trace buffer full; dropping the oldest event");
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
    const byTenant = new Map<string, TraceEvent[]>();
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
          console.error(`[vigil] trace write failed ${MAX_ATTEMPTS} times; dropping ${events.length} events`, error);
          this.failures = 0;
          continue;
        }
        // Keep them for the next flush rather than lose audit records.
        console.error("[vigil] trace write failed; will retry", error);
        this.buffer.unshift(...events);
        if (!this.timer) {
          this.timer = setTimeout(() => void this.flush(), 1000);
          this.timer.unref?.();
        }
      }
    }
  }
}

async function appendChained(tenantId: string, events: TraceEvent[]): Promise<void> {
  const t = schema.executionTrace;
  await withTenant({ tenantId }, async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`vigil.trace:${tenantId}`}, 0))`);
    const [head] = await tx.select({ seq: t.seq, hash: t.hash }).from(t).orderBy(desc(t.seq)).limit(1);
    let seq = head?.seq ?? 0;
    let prevHash = head?.hash ?? GENESIS_HASH;
    const rows = events.map((event) => {
      seq += 1;
      const chained: ChainedEvent = {
        tenantId,
        seq,
        eventType: event.eventType,
        runId: event.runId ?? null,
        node: event.node ?? null,
        actorId: event.actorId ?? null,
        durationMs: event.durationMs ?? null,
        payload: event.payload ?? {},
        occurredAt: event.occurredAt ?? new Date(),
      };
      const hash = chainHash(prevHash, chained);
      const row = { ...chained, prevHash, hash };
      prevHash = hash;
      return row;
    });
    await tx.insert(t).values(rows);
  });
}

const holder = globalThis as unknown as { __vigilTrace?: TraceWriter };

/** The process-wide trace writer. */
export function traceWriter(): TraceWriter {
  holder.__vigilTrace ??= new TraceWriter();
  return holder.__vigilTrace;
}

export function recordTrace(event: TraceEvent): void {
  traceWriter().record(event);
}

export function flushTrace(): Promise<void> {
  return traceWriter().flush();
}
