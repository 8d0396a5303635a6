import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import type { z } from "zod";
import type { TenantScope, Tx } from "@/lib/db";
import { TenantRoutingSaver } from "@/lib/graph-saver";
import { processSingleton } from "@/lib/process";
import { runContextOf, tenantOfConfig } from "./context";
import type { PendingInterrupt, RunEvent } from "./contract";
import { fenceGuard } from "./fence";
import { saveTaskWrites, taskWritesSaved } from "./task-recorders";

/** The slice of a compiled LangGraph graph that the run executor uses. */
export interface RunnableGraph {
  stream(input: unknown, options: Record<string, unknown>): Promise<AsyncIterable<unknown>>;
  getState(config: { configurable: Record<string, unknown> }): Promise<{
    values: unknown;
    next: readonly string[];
    tasks: readonly { name: string; interrupts?: readonly { id?: string; value?: unknown }[] }[];
    config?: unknown;
    /** When the checkpoint the state comes from was saved; absent when the thread has none yet. */
    createdAt?: string;
  }>;
}

export interface Workflow {
  name: string;
  /** Validates a run's input before the run is stored. */
  input: z.ZodType;
  /** Checks the parsed input against the tenant's data (an agent it names…), in the transaction that stores the run. */
  prepare?(tx: Tx, actor: { tenantId: string; userId: string }, input: unknown): Promise<void>;
  /** Compiles the graph over the given checkpointer; called once per process. */
  build(checkpointer: BaseCheckpointSaver): RunnableGraph;
  /**
   * The shape an answer to one of its own (non-checkpoint) interrupts must have, or null for
   * any value: a wrong shape is refused with a 400 before the run is resumed.
   */
  resumeValue?(interrupt: PendingInterrupt): z.ZodType | null;
  /** The graph state fields a client may read through GET /api/runs/{id}. */
  publicState(values: unknown): Record<string, unknown>;
  /** Run metadata for the stream's final message (e.g. citations, confidence). */
  finishMetadata?(values: unknown): Record<string, unknown>;
  /** Runs only their starter may see, whatever a viewer's role (a member's private consultation). */
  privateToStarter?: boolean;
  /** Runs that work on their starter's behalf and count toward the per-person cap of running runs. */
  capped?: boolean;
  /** Answers a chat turn on the session's thread, with the chat's turn input (an expert's `workflow`). */
  answersChat?: boolean;
  /**
   * Its runs are background work (an autonomous run): their database calls yield to people's
   * (lib/db lanes), except while a run stops for a person or takes up a decision.
   */
  background?: boolean;
  /**
   * Keeps what a run had shown before it was cancelled (a chat's partial answer), in the
   * transaction that cancels it; `log` is the run's event log up to the cancel, `shown` what the
   * person who stopped it had on screen (it may have arrived later than the log's end).
   */
  cancelled?(
    tx: Tx,
    scope: TenantScope,
    run: { id: string; threadId: string },
    log: readonly RunEvent[],
    shown?: CancelShown,
  ): Promise<void>;
}

/** What a canceller had on screen: the length of the text they were reading (in UTF-16 units). */
export interface CancelShown {
  textChars: number;
}

interface Catalog {
  workflows: Map<string, Workflow>;
  graphs: Map<string, RunnableGraph>;
}

// Process-wide (lib/process): Next.js may load this module twice (instrumentation and routes), and both
// copies must see what boot() installed.
const holder = processSingleton("workflows", (): { workflows?: Catalog } => ({}));

function catalog(): Catalog {
  holder.workflows ??= { workflows: new Map(), graphs: new Map() };
  return holder.workflows;
}

/** Installs the workflows this process can run (boot's static catalog; tests add their own). */
export function installWorkflows(workflows: readonly Workflow[]): void {
  const { workflows: installed, graphs } = catalog();
  for (const workflow of workflows) {
    if (installed.get(workflow.name) !== workflow) graphs.delete(workflow.name);
    installed.set(workflow.name, workflow);
  }
}

export function findWorkflow(name: string): Workflow | undefined {
  return catalog().workflows.get(name);
}

/** The names of every installed workflow (an agent is usable only with one of them). */
export const installedWorkflowNames = (): string[] => workflowNamesWhere(() => true);

/** The names of the installed workflows that have a trait (for SQL filters over runs). */
export function workflowNamesWhere(trait: (workflow: Workflow) => boolean | undefined): string[] {
  return [...catalog().workflows.values()].filter((w) => trait(w)).map((w) => w.name);
}

/** The workflow's graph, compiled once per process over a saver that routes by run context. */
export function graphOf(workflow: Workflow): RunnableGraph {
  const { graphs } = catalog();
  let graph = graphs.get(workflow.name);
  if (!graph) {
    graph = workflow.build(
      new TenantRoutingSaver(
        tenantOfConfig,
        (config, task, writes, save) => {
          const context = runContextOf(config);
          return saveTaskWrites(context, context.runId, context.fence, task, writes, save);
        },
        (config) => taskWritesSaved(runContextOf(config).runId, runContextOf(config).fence),
        (config) => {
          const { runId, fence } = runContextOf(config);
          return fence === undefined ? undefined : fenceGuard(runId, fence);
        },
      ),
    );
    graphs.set(workflow.name, graph);
  }
  return graph;
}
