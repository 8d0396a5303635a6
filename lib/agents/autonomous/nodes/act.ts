import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { approveBySystem, awaitDecision } from "@/lib/checkpoints";
import { emit, idempotencyKeyOf, runContextOf } from "@/lib/runs";
import type { NumberedSource } from "../evidence";
import { emitAgent, emitTodo, historyEntry, reasonOf, withStep } from "../progress";
import { saveHierarchyNode, saveToolExecution } from "../records";
import { gateOf } from "../safety";
import type { AutonomousStateType, AutonomousUpdate } from "../state";
import { toolTimeoutSeconds } from "../tool-timeout";
import { retryWouldRepeat, runTool } from "../tools";

const TOOL_ATTEMPTS = 2;

/**
 * Checkpoint 2, before a tool whose risk the safety level asks about (otherwise the system
 * approves it, recorded). An edit changes the tool's parameters; a rejection skips the tool and
 * re-plans the step: a knowledge-base search in its place, unless that was the tool refused.
 */
export async function gateTool(state: AutonomousStateType, config: LangGraphRunnableConfig): Promise<AutonomousUpdate> {
  const current = state.current;
  if (!current) throw new Error("think chose no tool");
  const tool = state.tools.find((t) => t.name === current.tool);
  if (!tool) {
    const todo = withStep(state.todo, current.stepId, {
      status: "skipped",
      note: `Skipped: the tool ${current.tool} is not available to this agent`,
    });
    emitTodo(config, todo);
    return { todo, current: null };
  }
  const step = state.todo.find((s) => s.id === current.stepId);
  const request = {
    tool_name: tool.name,
    tool_category: tool.category,
    tool_parameters: current.params ?? {},
    risk_level: tool.risk,
    data_access_scope: tool.data_access_scope,
    external_api: tool.external_api,
    reasoning: current.thought,
    expected_output: tool.expected_output,
    requires_sandbox: tool.requires_sandbox,
    // The design's field is the tool's own time limit, not the checkpoint's wait.
    timeout_seconds: tool.timeout_seconds ?? toolTimeoutSeconds(tool.name),
  };
  const gate = gateOf(state.safetyLevel ?? "balanced", "tool_execution", tool.risk);
  if (!gate.ask) {
    const { caseId } = await approveBySystem(config, "tool_execution", request, {
      key: `tool:${current.stepId}:${current.iteration}`,
      reason: gate.reason,
      riskLevel: tool.risk,
    });
    return {
      current: { ...current, caseId },
      checkpoints: [historyEntry(2, "tool_execution", { system: true, caseId, reason: gate.reason })],
    };
  }
  const decision = await awaitDecision(config, "tool_execution", request, {
    reasoning: current.thought,
    riskLevel: tool.risk,
    timeoutSeconds: state.timeoutSeconds,
    safetyLevel: state.safetyLevel ?? "balanced",
    goal: state.goal,
  });
  const entry = historyEntry(2, "tool_execution", decision);
  if (decision.action === "edit") {
    const params = decision.edit.tool_parameters as Record<string, unknown>;
    return {
      current: { ...current, params, caseId: decision.caseId ?? null },
      todo: withStep(state.todo, current.stepId, { params }),
      checkpoints: [entry],
    };
  }
  if (decision.action !== "reject")
    return { current: { ...current, caseId: decision.caseId ?? null }, checkpoints: [entry] };

  const run = runContextOf(config);
  await saveToolExecution(run, {
    stepId: current.stepId,
    iteration: current.iteration,
    agentId: state.agent?.id ?? "",
    toolName: tool.name,
    toolCategory: tool.category,
    riskLevel: tool.risk,
    parameters: current.params ?? {},
    status: "rejected",
    error: reasonOf(decision),
    caseId: decision.caseId ?? null,
  });
  const reason = reasonOf(decision) ?? "no reason given";
  let todo = withStep(state.todo, current.stepId, {
    status: "skipped",
    note: `Tool rejected at checkpoint 2: ${reason}`,
    react: {
      iteration: current.iteration,
      thought: current.thought,
      action: tool.name,
      observation: `Rejected by the reviewer: ${reason}`,
    },
  });
  if (tool.name !== "knowledge_search" && step) {
    const replacement = {
      id: `${step.id}-r${current.iteration}`,
      description: `${step.description} (from the knowledge base, as ${tool.name} was rejected)`,
      kind: "tool" as const,
      tool: "knowledge_search",
      params: { query: String(current.params?.query ?? step.description).slice(0, 500) },
      risk_level: state.tools.find((t) => t.name === "knowledge_search")?.risk ?? "low",
      status: "pending" as const,
      origin: "replan" as const,
      react: [],
    };
    const at = todo.findIndex((s) => s.id === step.id);
    todo = [...todo.slice(0, at + 1), replacement, ...todo.slice(at + 1)];
  }
  emitTodo(config, todo);
  return { todo, current: null, checkpoints: [entry] };
}

export const afterGateTool = (state: AutonomousStateType) => (state.current ? "act" : "think");

/** Adds passages to the run's numbered sources (once each) and says which numbers they have. */
export function addSources(
  sources: NumberedSource[],
  found: Omit<NumberedSource, "n">[],
): { sources: NumberedSource[]; numbers: number[] } {
  const next = [...sources];
  const numbers = found.map((passage) => {
    const known = next.find((s) => s.chunkId === passage.chunkId);
    if (known) return known.n;
    const added = { ...passage, n: next.length + 1 };
    next.push(added);
    return added.n;
  });
  return { sources: next, numbers };
}

/** Action and observation: runs the approved tool (retried once, unless a retry would only fail the same way), records it and what it found. */
export async function act(state: AutonomousStateType, config: LangGraphRunnableConfig): Promise<AutonomousUpdate> {
  const current = state.current;
  const tool = state.tools.find((t) => t.name === current?.tool);
  const agent = state.agent;
  if (!current || !tool || !agent) throw new Error("act without an approved tool");
  const run = runContextOf(config);
  const params = current.params ?? {};
  emit(config, {
    kind: "data",
    name: "tool",
    id: `${current.stepId}:${current.iteration}`,
    data: { tool: tool.name, status: "start", input: params },
  });
  emit(config, {
    kind: "trace",
    eventType: "tool_invocation",
    payload: { tool: tool.name, step: current.stepId, input: params },
  });
  const started = Date.now();
  let attempts = 0;
  let outcome: Awaited<ReturnType<typeof runTool>> | null = null;
  let failure: string | null = null;
  // One key for both attempts and for this step's re-run after a crash: each is the same call.
  const idempotencyKey = idempotencyKeyOf(config, `${tool.name}:${current.stepId}:${current.iteration}`);
  while (attempts < TOOL_ATTEMPTS && !outcome) {
    attempts += 1;
    try {
      outcome = await runTool(tool.name, params, {
        scope: run,
        knowledgeDomains: agent.knowledgeDomains,
        signal: config.signal,
        timeoutSeconds: tool.timeout_seconds ?? null,
        idempotencyKey,
      });
    } catch (error) {
      if (config.signal?.aborted) throw error;
      failure = error instanceof Error ? error.message.slice(0, 300) : "the tool failed";
      if (retryWouldRepeat(error)) break;
    }
  }
  const durationMs = Date.now() - started;
  const { sources, numbers } = addSources(state.sources, outcome?.passages ?? []);
  const observation = outcome
    ? `${outcome.observation}${numbers.length ? ` Sources ${numbers.map((n) => `[${n}]`).join(" ")}.` : ""}`
    : `The tool failed after ${attempts} ${attempts === 1 ? "attempt" : "attempts"}: ${failure}`;
  await saveToolExecution(run, {
    stepId: current.stepId,
    iteration: current.iteration,
    agentId: agent.id,
    toolName: tool.name,
    toolCategory: tool.category,
    riskLevel: tool.risk,
    parameters: params,
    status: outcome ? "succeeded" : "failed",
    output: outcome?.output ?? null,
    error: outcome ? null : failure,
    attempts,
    durationMs,
    caseId: current.caseId ?? null,
  });
  emit(config, {
    kind: "data",
    name: "tool",
    id: `${current.stepId}:${current.iteration}`,
    data: {
      tool: tool.name,
      status: outcome ? "end" : "error",
      input: params,
      output: outcome?.output ?? { error: failure },
    },
  });
  emit(config, {
    kind: "trace",
    eventType: "tool_result",
    durationMs,
    payload: { tool: tool.name, step: current.stepId, attempts, ...(outcome ? outcome.output : { error: failure }) },
    touched: outcome?.touched,
  });
  const root = state.hierarchy[0];
  const hierarchy = [...state.hierarchy];
  if (root && !root.toolsUsed.includes(tool.name)) {
    hierarchy[0] = { ...root, toolsUsed: [...root.toolsUsed, tool.name] };
    await saveHierarchyNode(run, { ...hierarchy[0], parentAgentId: null });
    emitAgent(config, hierarchy[0]);
  }
  const todo = withStep(state.todo, current.stepId, {
    status: outcome ? "done" : "failed",
    ...(outcome ? {} : { note: failure ?? "failed" }),
    react: {
      iteration: current.iteration,
      thought: current.thought,
      action: `${tool.name}(${JSON.stringify(params)})`,
      observation,
    },
  });
  emitTodo(config, todo);
  return {
    todo,
    sources,
    hierarchy,
    current: null,
    ...(attempts > 1
      ? { retries: { ...state.retries, [`act:${tool.name}`]: (state.retries[`act:${tool.name}`] ?? 0) + attempts - 1 } }
      : {}),
  };
}
