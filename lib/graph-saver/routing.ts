import type { RunnableConfig } from "@langchain/core/runnables";
import {
  BaseCheckpointSaver,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type CheckpointTuple,
  type PendingWrite,
} from "@langchain/langgraph-checkpoint";
import type { SQL } from "drizzle-orm";
import type { Tx } from "@/lib/db";
import { DrizzleCheckpointSaver } from "./saver";

/**
 * One saver for a graph compiled once per process: each call goes to the tenant-scoped saver of
 * the tenant its config names, so row-level security still decides what a call can touch. A
 * call whose config names no tenant fails (`tenantOf` throws) rather than guess.
 */
export class TenantRoutingSaver extends BaseCheckpointSaver {
  private readonly savers = new Map<string, DrizzleCheckpointSaver>();

  /**
   * @param tenantOf the tenant a call's config names (throws when it names none)
   * @param withTaskWrites saves a task's writes in a transaction of the caller's (`save` does the
   *   writing), so what the run records about the task — its start, its output, its end —
   *   commits together with the writes: after a crash the record and the checkpoint agree.
   * @param beforePut waits until the task writes already handed over are saved: LangGraph
   *   saves a step's checkpoint without waiting for its tasks' writes, and a checkpoint that
   *   holds a node's result must not commit before the record that the node completed.
   * @param guardOf the check a checkpoint save of this call runs first in its transaction (the
   *   run's fencing token): a save from an execution that lost its run is refused.
   */
  constructor(
    private readonly tenantOf: (config: RunnableConfig) => string,
    private readonly withTaskWrites?: (
      config: RunnableConfig,
      task: { id: string; path: string },
      writes: PendingWrite[],
      save: (tx: Tx) => Promise<void>,
    ) => Promise<void>,
    private readonly beforePut?: (config: RunnableConfig) => Promise<void>,
    private readonly guardOf?: (config: RunnableConfig) => SQL | undefined,
  ) {
    super();
  }

  private saverFor(config: RunnableConfig): DrizzleCheckpointSaver {
    const tenantId = this.tenantOf(config);
    let saver = this.savers.get(tenantId);
    if (!saver) {
      saver = new DrizzleCheckpointSaver({ tenantId, serde: this.serde });
      this.savers.set(tenantId, saver);
    }
    return saver;
  }

  getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    return this.saverFor(config).getTuple(config);
  }

  list(config: RunnableConfig, options?: CheckpointListOptions): AsyncGenerator<CheckpointTuple> {
    return this.saverFor(config).list(config, options);
  }

  async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<RunnableConfig> {
    const saver = this.saverFor(config);
    await this.beforePut?.(config);
    return saver.putGuarded(this.guardOf?.(config), config, checkpoint, metadata, newVersions);
  }

  putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string, taskPath?: string): Promise<void> {
    const saver = this.saverFor(config);
    if (!this.withTaskWrites) return saver.putWrites(config, writes, taskId, taskPath);
    return this.withTaskWrites(config, { id: taskId, path: taskPath ?? "" }, writes, (tx) =>
      saver.putWritesIn(tx, config, writes, taskId, taskPath),
    );
  }

  deleteThread(): Promise<void> {
    throw new Error("Delete a thread through its tenant's DrizzleCheckpointSaver.");
  }
}
