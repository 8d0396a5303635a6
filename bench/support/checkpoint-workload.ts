import { randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import type { RunnableConfig } from "@langchain/core/runnables";
import type { BaseCheckpointSaver, Checkpoint, CheckpointMetadata } from "@langchain/langgraph-checkpoint";
import { uuid6 } from "@langchain/langgraph-checkpoint";

// The checkpoint benchmark's workload: a 20-step graph state of 10 channels of ~4 KiB, 2 changed per step.

export const STEPS = Number(process.env.BENCH_STEPS ?? 20);
export const CHANNELS = 10;
export const CHANGED_PER_STEP = 2;
export const VALUE_BYTES = 4096;
export const LIST_LIMIT = 10;

export const OPERATIONS = ["put", "putWrites", "getTuple", "list"] as const;
export type Operation = (typeof OPERATIONS)[number];
export type Samples = Record<Operation, number[]>;

export function emptySamples(): Samples {
  return { put: [], putWrites: [], getTuple: [], list: [] };
}

const channelNames = Array.from({ length: CHANNELS }, (_, i) => `channel_${i}`);

/** A ~4 KiB channel value of incompressible text, so TOAST compression flatters neither saver. */
function channelValue(channel: string, step: number) {
  return { channel, step, text: randomBytes((VALUE_BYTES * 3) / 4).toString("base64") };
}

/**
 * One thread as the Pregel loop drives a saver: every step puts a checkpoint whose newVersions
 * name only the channels that step changed, records the step's writes, and reads the latest
 * checkpoint back; at the end the thread's history is listed. Latencies go to `samples`.
 */
export async function runThread(saver: BaseCheckpointSaver, threadId: string, samples: Samples | undefined) {
  const timed = async <T>(op: Operation, fn: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    const result = await fn();
    samples?.[op].push(performance.now() - start);
    return result;
  };
  const values: Record<string, unknown> = {};
  const versions: Record<string, number> = {};
  let config: RunnableConfig = { configurable: { thread_id: threadId, checkpoint_ns: "" } };
  for (let step = 0; step < STEPS; step++) {
    const changed =
      step === 0
        ? channelNames
        : Array.from({ length: CHANGED_PER_STEP }, (_, i) => channelNames[(step * CHANGED_PER_STEP + i) % CHANNELS]);
    const newVersions: Record<string, number> = {};
    for (const channel of changed) {
      values[channel] = channelValue(channel, step);
      versions[channel] = (versions[channel] ?? 0) + 1;
      newVersions[channel] = versions[channel];
    }
    const checkpoint: Checkpoint = {
      v: 4,
      id: uuid6(0),
      ts: new Date().toISOString(),
      channel_values: { ...values },
      channel_versions: { ...versions },
      versions_seen: { agent: { ...versions } },
    };
    const metadata = { source: "loop", step, parents: {}, run_id: `run-${threadId}` } as CheckpointMetadata;
    const putConfig = config;
    config = await timed("put", () => saver.put(putConfig, checkpoint, metadata, newVersions));
    const writes = changed.slice(0, CHANGED_PER_STEP).map((channel): [string, unknown] => [channel, values[channel]]);
    const writeConfig = config;
    await timed("putWrites", () => saver.putWrites(writeConfig, writes, `task-${step}`));
    await timed("getTuple", () => saver.getTuple({ configurable: { thread_id: threadId, checkpoint_ns: "" } }));
  }
  await timed("list", async () => {
    let n = 0;
    for await (const _ of saver.list({ configurable: { thread_id: threadId } }, { limit: LIST_LIMIT })) n++;
    if (n !== Math.min(LIST_LIMIT, STEPS)) throw new Error(`list returned ${n} checkpoints`);
  });
}
