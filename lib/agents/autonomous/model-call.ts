import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { z } from "zod";
import { createEngineWithSelection, type Engine } from "@/lib/engine";
import { emit } from "@/lib/runs";

// One typed request to the run's model through the engine seam (planning, tool choice, decision
// weighing, judged principles), traced as an llm_call with what came of it. A failed call is
// never thrown at the node: it returns why, and the caller decides what failing means there
// (fall back to the offline step, or fail closed).

/** The run agent's model when the deployment has one that answers typed requests, else null. */
export function runModelOf(agent: { model: string | null; temperature: number | null }): Engine | null {
  try {
    const { engine } = createEngineWithSelection({ agent: { model: agent.model, temperature: agent.temperature } });
    return engine.generateObject ? engine : null;
  } catch {
    return null;
  }
}

/** Whether the deployment's own model (no agent override) can judge: what a tenant-wide principle may rely on. */
export const deploymentModelJudges = () => runModelOf({ model: null, temperature: null }) !== null;

export type ModelAnswer<T> = { ok: true; output: T } | { ok: false; refused: boolean; reason: string };

/** How the llm_call trace records the call. */
export interface ModelCallTrace<T> {
  /** Outcome recorded when the call fails: "fallback" (the offline step runs) or "failed_closed". */
  onFailure: "fallback" | "failed_closed";
  /** Fields added to the trace (which principle, which step). */
  extra?: Record<string, unknown>;
  /** Why a well-formed answer cannot be used, or null: the trace's outcome is then "refused". */
  refuse?: (output: T) => string | null;
}

export async function askModel<T>(
  config: LangGraphRunnableConfig,
  engine: Engine,
  purpose: string,
  request: { system: string; prompt: string; schema: z.ZodType<T> },
  trace: ModelCallTrace<T> = { onFailure: "fallback" },
): Promise<ModelAnswer<T>> {
  const started = Date.now();
  const record = (outcome: string, fields: Record<string, unknown> = {}) =>
    emit(config, {
      kind: "trace",
      eventType: "llm_call",
      durationMs: Date.now() - started,
      payload: { purpose, engine: engine.name, model: engine.model, outcome, ...trace.extra, ...fields },
    });
  try {
    const result = await (engine.generateObject as NonNullable<Engine["generateObject"]>)({
      ...request,
      temperature: 0,
      signal: config.signal,
    });
    const usage = {
      tokens: result.usage ? result.usage.inputTokens + result.usage.outputTokens : 0,
      costUsd: result.costUsd,
    };
    const refusal = trace.refuse?.(result.output) ?? null;
    if (refusal !== null) {
      record("refused", { ...usage, reason: refusal.slice(0, 500) });
      return { ok: false, refused: true, reason: refusal };
    }
    record("ok", usage);
    return { ok: true, output: result.output };
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).slice(0, 300);
    record(trace.onFailure, { reason });
    return { ok: false, refused: false, reason };
  }
}
