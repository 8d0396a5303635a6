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
import { DrizzleCheckpointSaver } from "./saver";

/**
 * One saver for a graph compiled once per process: each call goes to the tenant-scoped saver of
 * the tenant its config names, so row-level security still decides what a call can touch. A
 * call whose config names no tenant fails (`tenantOf` throws) rather than guess.
 */
export class TenantRoutingSaver extends BaseCheckpointSaver {
  private readonly savers = new Map<string, DrizzleCheckpointSaver>();

  constructor(private readonly tenantOf: (config: RunnableConfig) => string) {
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

  put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<RunnableConfig> {
    return this.saverFor(config).put(config, checkpoint, metadata, newVersions);
  }

  putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string, taskPath?: string): Promise<void> {
    return this.saverFor(config).putWrites(config, writes, taskId, taskPath);
  }

  deleteThread(): Promise<void> {
    throw new Error("Delete a thread through its tenant's DrizzleCheckpointSaver.");
  }
}
