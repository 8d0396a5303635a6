import type { TenantScope, Tx } from "@/lib/db";
import { processSingleton } from "@/lib/process";
import type { TraceEvent } from "./contract";

/**
 * Where trace events go instead of the outbox. Only `bench:seam` sets one: it runs the same
 * workload with the old in-memory buffer as its peer, to measure what the outbox's durability
 * costs a run. The product never does.
 */
export interface TraceSink {
  write(tx: Tx, scope: TenantScope, events: readonly TraceEvent[]): Promise<void>;
  nudge(tenantId: string): void;
}

const holder = processSingleton("trace-sink", (): { traceSink?: TraceSink } => ({}));

export function replaceTraceSink(sink: TraceSink | undefined): void {
  holder.traceSink = sink;
}

export function traceSink(): TraceSink | undefined {
  return holder.traceSink;
}
