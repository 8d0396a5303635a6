import type { RunnableConfig } from "@langchain/core/runnables";
import {
  BaseCheckpointSaver,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type CheckpointTuple,
  type PendingWrite,
  type SerializerProtocol,
  WRITES_IDX_MAP,
} from "@langchain/langgraph-checkpoint";
import type { SQL } from "drizzle-orm";
import { type TenantScope, type Tx, tenantStatement, withTenant } from "@/lib/db";
import { metadataTerms } from "./metadata-terms";
import { runPrepared } from "./prepared";
import { deleteIdleThreads, deleteOldCheckpoints, deleteThreadRows, deleteUnreferencedBlobs } from "./retention-sql";
import { saveCheckpoint, saveWrites, type WriteRow } from "./save-sql";
import { type SendRow, selectSendsOf, selectTuples, type TupleQuery, type TupleRow } from "./select-sql";
import { dumpBlobs, dumpCheckpoint, dumpMetadata, dumpWrites } from "./serialize";
import {
  attachSends,
  groupTupleRows,
  loadCheckpoint,
  loadMetadata,
  loadPendingWrites,
  needingSends,
  type StoredTuple,
} from "./tuples";

export interface DrizzleCheckpointSaverOptions {
  /** Every checkpoint this saver reads or writes belongs to this tenant (row-level security). */
  tenantId: string;
  serde?: SerializerProtocol;
}

export interface PruneResult {
  checkpoints: number;
  blobs: number;
  writes: number;
}

/**
 * LangGraph checkpoints in the application database, scoped to one tenant. Each call is one
 * tenant transaction, so the app role and row-level security decide what it can touch.
 */
export class DrizzleCheckpointSaver extends BaseCheckpointSaver {
  readonly tenantId: string;
  private readonly scope: TenantScope;

  constructor({ tenantId, serde }: DrizzleCheckpointSaverOptions) {
    super(serde);
    this.tenantId = tenantId;
    this.scope = { tenantId };
  }

  async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const { thread_id, checkpoint_ns = "", checkpoint_id } = config.configurable ?? {};
    if (thread_id === undefined || thread_id === null) return undefined;
    const query: TupleQuery = { threadId: String(thread_id), checkpointNs: checkpoint_ns, limit: 1 };
    if (checkpoint_id) query.checkpointId = checkpoint_id;
    const [stored] = await this.select(query);
    return stored && this.toTuple(stored);
  }

  async *list(config: RunnableConfig, options?: CheckpointListOptions): AsyncGenerator<CheckpointTuple> {
    const { thread_id, checkpoint_ns, checkpoint_id } = config?.configurable ?? {};
    const query: TupleQuery = { filter: options?.filter };
    if (thread_id) query.threadId = String(thread_id);
    if (checkpoint_ns !== undefined && checkpoint_ns !== null) query.checkpointNs = checkpoint_ns;
    if (checkpoint_id) query.checkpointId = checkpoint_id;
    const before = options?.before?.configurable?.checkpoint_id;
    if (before !== undefined) query.before = before;
    if (options?.limit !== undefined) query.limit = Math.trunc(options.limit);
    // Read everything first: the transaction must not stay open while the caller iterates.
    const stored = await this.select(query);
    for (const tuple of stored) yield await this.toTuple(tuple);
  }

  put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<RunnableConfig> {
    return this.putGuarded(undefined, config, checkpoint, metadata, newVersions);
  }

  /**
   * `put`, with `guard` run first in the save's transaction: when it raises, the checkpoint is
   * not saved (a run's fencing check, see TenantRoutingSaver).
   */
  async putGuarded(
    guard: SQL | undefined,
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<RunnableConfig> {
    if (config.configurable === undefined) throw new Error(`Missing "configurable" field in "config" param`);
    const { thread_id, checkpoint_ns = "", checkpoint_id } = config.configurable;
    if (thread_id === undefined || thread_id === null) throw new Error(`Missing "thread_id" in "config.configurable"`);
    const [blobs, dumpedMetadata] = await Promise.all([
      dumpBlobs(this.serde, checkpoint.channel_values, newVersions),
      dumpMetadata(this.serde, metadata),
    ]);
    const statement = saveCheckpoint({
      tenantId: this.tenantId,
      threadId: String(thread_id),
      checkpointNs: checkpoint_ns,
      checkpointId: checkpoint.id,
      parentCheckpointId: checkpoint_id ?? null,
      checkpoint: dumpCheckpoint(checkpoint),
      metadata: dumpedMetadata.json,
      terms: metadataTerms(dumpedMetadata.parsed),
      blobs,
    });
    await tenantStatement(this.scope, statement, { prepare: true, guard });
    return { configurable: { thread_id, checkpoint_ns, checkpoint_id: checkpoint.id } };
  }

  async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string, taskPath = ""): Promise<void> {
    const statement = await this.writesStatement(config, writes, taskId, taskPath);
    if (statement) await tenantStatement(this.scope, statement, { prepare: true });
  }

  /**
   * The same inside a caller's tenant transaction, so what the caller records about the task
   * commits with the task's writes (see TenantRoutingSaver).
   */
  async putWritesIn(
    tx: Tx,
    config: RunnableConfig,
    writes: PendingWrite[],
    taskId: string,
    taskPath = "",
  ): Promise<void> {
    const statement = await this.writesStatement(config, writes, taskId, taskPath);
    if (statement) await tx.execute(statement);
  }

  private async writesStatement(
    config: RunnableConfig,
    writes: PendingWrite[],
    taskId: string,
    taskPath: string,
  ): Promise<SQL | null> {
    const { thread_id, checkpoint_ns = "", checkpoint_id } = config.configurable ?? {};
    if (thread_id === undefined || thread_id === null) throw new Error(`Missing "thread_id" in "config.configurable"`);
    if (!checkpoint_id) throw new Error(`Missing "checkpoint_id" in "config.configurable"`);
    if (writes.length === 0) return null;
    const replace = writes.every(([channel]) => channel in WRITES_IDX_MAP);
    let rows = await dumpWrites(this.serde, writes, taskId, taskPath);
    // One statement may not upsert a row twice; the last write of a special channel wins.
    if (replace) rows = [...new Map(rows.map((row): [number, WriteRow] => [row.idx, row])).values()];
    const target = {
      tenantId: this.tenantId,
      threadId: String(thread_id),
      checkpointNs: checkpoint_ns,
      checkpointId: checkpoint_id,
    };
    return saveWrites(target, rows, replace);
  }

  async deleteThread(threadId: string): Promise<void> {
    await tenantStatement(this.scope, deleteThreadRows(threadId), { prepare: true });
  }

  /**
   * Keeps the newest `keepLast` checkpoints of each namespace of a thread and deletes the older
   * ones, with their pending writes and the channel values no kept checkpoint refers to. History
   * before the oldest kept checkpoint is gone: time travel and delta-channel replay stop there.
   */
  async prune(threadId: string, { keepLast }: { keepLast: number }): Promise<PruneResult> {
    if (!Number.isInteger(keepLast) || keepLast < 1) throw new RangeError("keepLast must be a positive integer");
    return withTenant(this.scope, async (tx) => {
      const [deleted] = await runPrepared<{ checkpoints: number; writes: number }>(
        tx,
        "checkpoint_prune",
        deleteOldCheckpoints(threadId, keepLast),
      );
      if (deleted.checkpoints === 0) return { checkpoints: 0, blobs: 0, writes: 0 };
      const [orphans] = await runPrepared<{ blobs: number }>(
        tx,
        "checkpoint_prune_blobs",
        deleteUnreferencedBlobs(threadId),
      );
      return { checkpoints: deleted.checkpoints, blobs: orphans.blobs, writes: deleted.writes };
    });
  }

  /**
   * TTL: deletes every thread of this tenant with no new checkpoint for `olderThanMs` (to within
   * a minute, see saveCheckpoint) and returns their ids.
   */
  async sweepIdleThreads(olderThanMs: number): Promise<string[]> {
    if (!Number.isFinite(olderThanMs) || olderThanMs < 0) throw new RangeError("olderThanMs must be >= 0");
    const rows = await tenantStatement<{ thread_id: string }>(this.scope, deleteIdleThreads(olderThanMs), {
      prepare: true,
    });
    return rows.map((row) => row.thread_id);
  }

  private async select(query: TupleQuery): Promise<StoredTuple[]> {
    const rows = await tenantStatement<TupleRow>(this.scope, selectTuples(query), { prepare: true });
    const stored = groupTupleRows(rows);
    const legacy = needingSends(stored);
    if (legacy.length > 0) {
      // Only checkpoints written before format 4 get here. A parent's sends were written before
      // its child checkpoint, so a second transaction sees every one the first did.
      const parents = legacy.map(({ head }) => ({
        threadId: head.thread_id as string,
        checkpointNs: head.checkpoint_ns as string,
        checkpointId: head.parent_checkpoint_id as string,
      }));
      attachSends(legacy, await tenantStatement<SendRow>(this.scope, selectSendsOf(parents)));
    }
    return stored;
  }

  private async toTuple(stored: StoredTuple): Promise<CheckpointTuple> {
    const head = stored.head;
    const thread_id = head.thread_id as string;
    const checkpoint_ns = head.checkpoint_ns as string;
    const [checkpoint, metadata, pendingWrites] = await Promise.all([
      loadCheckpoint(this.serde, stored, () => this.getNextVersion(undefined)),
      loadMetadata(this.serde, head),
      loadPendingWrites(this.serde, stored.writes),
    ]);
    return {
      config: { configurable: { thread_id, checkpoint_ns, checkpoint_id: head.checkpoint_id } },
      checkpoint,
      metadata,
      parentConfig: head.parent_checkpoint_id
        ? { configurable: { thread_id, checkpoint_ns, checkpoint_id: head.parent_checkpoint_id } }
        : undefined,
      pendingWrites,
    };
  }
}
