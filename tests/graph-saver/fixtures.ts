import type { RunnableConfig } from "@langchain/core/runnables";
import { type Checkpoint, type CheckpointMetadata, uuid6 } from "@langchain/langgraph-checkpoint";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll } from "vitest";
import { type Database, rowsOf, setActiveDatabase } from "@/lib/db";
import type { DrizzleCheckpointSaver } from "@/lib/graph-saver";
import type { TestTarget } from "../support/databases";

/** Opens a fresh database for the enclosing describe and points lib calls at it. */
export function databaseFor(target: TestTarget): { readonly database: Database } {
  const holder = {} as { database: Database };
  beforeAll(async () => {
    holder.database = await target.open();
    setActiveDatabase(holder.database);
  });
  afterAll(async () => {
    setActiveDatabase(undefined);
    await holder.database?.close();
  });
  return holder;
}

export interface ChainStep {
  /** Channels whose value changes in this step (others carry their previous version). */
  changed: Record<string, unknown>;
  metadata?: Record<string, unknown>;
  writes?: [string, unknown][];
}

/**
 * Writes a chain of checkpoints to one thread and namespace the way the Pregel loop does: each
 * step bumps the versions of the channels it changed and passes only those as newVersions.
 */
export async function putChain(
  saver: DrizzleCheckpointSaver,
  threadId: string,
  steps: ChainStep[],
  checkpointNs = "",
): Promise<RunnableConfig[]> {
  const values: Record<string, unknown> = {};
  const versions: Record<string, number> = {};
  const configs: RunnableConfig[] = [];
  let config: RunnableConfig = { configurable: { thread_id: threadId, checkpoint_ns: checkpointNs } };
  for (const [step, { changed, metadata, writes }] of steps.entries()) {
    const newVersions: Record<string, number> = {};
    for (const [channel, value] of Object.entries(changed)) {
      values[channel] = value;
      versions[channel] = (versions[channel] ?? 0) + 1;
      newVersions[channel] = versions[channel];
    }
    const checkpoint: Checkpoint = {
      v: 4,
      id: uuid6(0),
      ts: new Date().toISOString(),
      channel_values: { ...values },
      channel_versions: { ...versions },
      versions_seen: {},
    };
    const meta = { source: "loop", step, parents: {}, ...metadata } as CheckpointMetadata;
    config = await saver.put(config, checkpoint, meta, newVersions);
    if (writes) await saver.putWrites(config, writes, `task-${step}`);
    configs.push(config);
  }
  return configs;
}

/** Rows per checkpoint table for one thread, counted as the owner (no row-level security). */
export async function countRows(database: Database, tenantId: string, threadId: string) {
  const result = await database.db.execute(sql`select
      (select count(*) from checkpoints where tenant_id = ${tenantId} and thread_id = ${threadId})::int as checkpoints,
      (select count(*) from checkpoint_blobs where tenant_id = ${tenantId} and thread_id = ${threadId})::int as blobs,
      (select count(*) from checkpoint_writes where tenant_id = ${tenantId} and thread_id = ${threadId})::int as writes,
      (select count(*) from checkpoint_metadata_terms where tenant_id = ${tenantId} and thread_id = ${threadId})::int as terms,
      (select count(*) from checkpoint_threads where tenant_id = ${tenantId} and thread_id = ${threadId})::int as threads`);
  return rowsOf<{ checkpoints: number; blobs: number; writes: number; terms: number; threads: number }>(result)[0];
}

export async function toArray<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}
