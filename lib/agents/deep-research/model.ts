import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { createEngineWithSelection, type Engine, type ObjectRequest } from "@/lib/engine";
import { emit } from "@/lib/runs";
import type { EngineFallback } from "./contract";
import type { ResearchStateType } from "./state";

// The model path of deep research. Every phase that can use a model asks it here, through the
// engine seam (typed output, validated against a zod schema), and every call is traced. When
// the call fails or its output does not hold, the caller runs its offline step and the state
// records the fallback: the run never stops because a model misbehaved.

export const OFFLINE_ENGINE = "offline";

type Agent = NonNullable<ResearchStateType["agent"]>;

const engineFor = (agent: Pick<Agent, "model" | "temperature">) =>
  createEngineWithSelection({ agent: { model: agent.model ?? null, temperature: agent.temperature ?? null } });

/**
 * What a run records as its engine when it starts: the selected model's id when the deployment
 * can ask one, else "offline". A deployment that names a provider without its credentials is a
 * configuration problem the run reports as a fallback rather than fails on.
 */
export function engineAtStart(agent: Agent): { engine: string; fallback: EngineFallback | null } {
  try {
    const { engine, selection } = engineFor(agent);
    return { engine: engine.generateObject ? selection.model : OFFLINE_ENGINE, fallback: null };
  } catch (error) {
    return {
      engine: OFFLINE_ENGINE,
      fallback: { phase: "engine", reason: reasonOf(error), task_id: null },
    };
  }
}

function modelOf(state: ResearchStateType): Engine | null {
  if (state.engine === OFFLINE_ENGINE || !state.agent) return null;
  try {
    const { engine } = engineFor(state.agent);
    return engine.generateObject ? engine : null;
  } catch {
    return null;
  }
}

export type Asked<T> = { ok: true; output: T } | { ok: false; fallback: EngineFallback };

export interface PhaseRequest<T> extends ObjectRequest<T> {
  /** The phase, as the trace and the fallback list name it (e.g. "plan"). */
  phase: string;
  /** Checks what a schema cannot (language, distinctness, …): a reason when the output does not hold. */
  check?: (output: T) => string | null;
  taskId?: number | null;
}

/**
 * Asks the run's model for one phase. Null when the run has no model (the offline path, nothing
 * to record); otherwise the checked output, or the fallback to record. Each call is an
 * `llm_call` trace event with its purpose, outcome, tokens and cost as the engine reports them.
 */
export async function askModel<T>(
  state: ResearchStateType,
  config: LangGraphRunnableConfig,
  request: PhaseRequest<T>,
): Promise<Asked<T> | null> {
  if (state.engine === OFFLINE_ENGINE) return null;
  const taskId = request.taskId ?? null;
  const fail = (reason: string): Asked<T> => ({
    ok: false,
    fallback: { phase: request.phase, reason: reason.slice(0, 500), task_id: taskId },
  });
  const model = modelOf(state);
  if (!model?.generateObject) return fail(`the model ${state.engine} is no longer configured`);
  const started = Date.now();
  const trace = (outcome: string, extra: Record<string, unknown>) =>
    emit(config, {
      kind: "trace",
      eventType: "llm_call",
      durationMs: Date.now() - started,
      payload: {
        purpose: `research_${request.phase}`,
        engine: model.name,
        model: model.model,
        outcome,
        ...(taskId !== null ? { taskId } : {}),
        ...extra,
      },
    });
  try {
    const result = await model.generateObject({ ...request, signal: request.signal ?? config.signal });
    const usage = result.usage ? { tokensIn: result.usage.inputTokens, tokensOut: result.usage.outputTokens } : {};
    const problem = request.check?.(result.output) ?? null;
    trace(problem ? "invalid" : "ok", { ...usage, costUsd: result.costUsd, ...(problem ? { problem } : {}) });
    return problem ? fail(problem) : { ok: true, output: result.output };
  } catch (error) {
    // A stopped run stops; anything else the model did wrong is the offline step's turn.
    if (config.signal?.aborted) throw error;
    const reason = reasonOf(error);
    trace("failed", { error: reason });
    return fail(reason);
  }
}

function reasonOf(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`.slice(0, 500);
  return String(error).slice(0, 500);
}

/** The step message that says a phase fell back, for the run's stream. */
export const fellBack = (f: EngineFallback) =>
  `The model's ${f.phase.replaceAll("_", " ")} was not used (${f.reason}); the offline step ran instead`;
