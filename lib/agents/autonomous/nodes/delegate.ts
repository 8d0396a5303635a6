import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { approveBySystem, awaitDecision } from "@/lib/checkpoints";
import { emit, runContextOf } from "@/lib/runs";
import { AUTONOMOUS_LIMITS, type HierarchyNode } from "../../contract";
import { assessDelegation } from "../delegation";
import { estimateSpecialist } from "../estimates";
import { emitAgent, emitTodo, historyEntry, reasonOf, withStep } from "../progress";
import { saveHierarchyNode, stableId } from "../records";
import { gateOf } from "../safety";
import { runSpecialist } from "../specialist";
import type { AutonomousStateType, AutonomousUpdate } from "../state";
import { addSources } from "./act";
import { findRunAgent } from "./setup";
import { spawnsOf } from "./think";

/**
 * The tools the delegation may use: as checkpoint 3 authorised them (a reviewer's edit included,
 * kept within the run's own tools), else as assessed. Read by the specialist, which calls no other.
 */
const authorisedOf = (state: AutonomousStateType, assessed: string[]): string[] => {
  const edited = state.current?.params?.tools_authorized;
  if (!Array.isArray(edited)) return assessed;
  const own = new Set(state.tools.map((t) => t.name));
  return edited.filter((t): t is string => typeof t === "string" && own.has(t));
};

const taskOf = (state: AutonomousStateType) =>
  String(
    state.current?.params?.task ?? state.todo.find((s) => s.id === state.current?.stepId)?.description ?? state.goal,
  ).slice(0, 2000);

/**
 * Checkpoint 3, before a step is delegated to another expert. Its complexity, coordination,
 * tools and risk are assessed from the task (delegation.ts), its duration from the tenant's
 * finished specialists; the safety level decides whether a person is asked. An edit may change
 * the task and narrow the tools authorised (the specialist then calls no other); a rejection
 * runs the step without the sub-agent: the run's own expert searches instead.
 */
export async function gateSpawn(
  state: AutonomousStateType,
  config: LangGraphRunnableConfig,
): Promise<AutonomousUpdate> {
  const current = state.current;
  const step = state.todo.find((s) => s.id === current?.stepId);
  const expert = state.experts.find((e) => e.slug === step?.agent);
  const root = state.hierarchy[0];
  if (!current || !step || !expert || !root) throw new Error("think chose no expert");
  const task = taskOf(state);
  const budget = AUTONOMOUS_LIMITS.max_sub_agents_per_run - spawnsOf(state) - 1;
  const assessed = assessDelegation(
    task,
    expert,
    state.tools,
    Math.max(1, Math.min(AUTONOMOUS_LIMITS.parallel_agent_limit, budget)),
  );
  const estimate = await estimateSpecialist(runContextOf(config));
  const request = {
    agent_id: expert.id,
    agent_name: expert.name,
    agent_level: "l3_specialist" as const,
    agent_capabilities: [expert.domain, ...expert.knowledgeDomains.map((d) => `knowledge: ${d}`)],
    task_description: task,
    task_complexity: assessed.task_complexity,
    estimated_duration_seconds: estimate.seconds,
    parent_agent_id: root.agentId,
    coordination_mode: assessed.coordination_mode,
    tools_authorized: assessed.tools_authorized,
    data_access_scope: "read_only",
    max_execution_time_seconds: 300,
  };
  const gate = gateOf(state.safetyLevel ?? "balanced", "subagent_spawn", assessed.risk);
  if (!gate.ask) {
    const { caseId } = await approveBySystem(config, "subagent_spawn", request, {
      key: `spawn:${current.stepId}:${current.iteration}`,
      reason: gate.reason,
      riskLevel: assessed.risk,
    });
    return {
      current: { ...current, params: { ...current.params, tools_authorized: assessed.tools_authorized }, caseId },
      checkpoints: [historyEntry(3, "subagent_spawn", { system: true, caseId, reason: gate.reason })],
    };
  }
  const decision = await awaitDecision(config, "subagent_spawn", request, {
    reasoning: `${current.thought} Assessed: ${assessed.reasons.join("; ")}. Duration: ${estimate.basis}`,
    riskLevel: assessed.risk,
    timeoutSeconds: state.timeoutSeconds,
    safetyLevel: state.safetyLevel ?? "balanced",
    goal: state.goal,
  });
  const entry = historyEntry(3, "subagent_spawn", decision);
  if (decision.action === "edit") {
    const edited =
      typeof decision.edit.task_description === "string" ? decision.edit.task_description : request.task_description;
    const tools = Array.isArray(decision.edit.tools_authorized)
      ? (decision.edit.tools_authorized as string[])
      : request.tools_authorized;
    return {
      current: {
        ...current,
        params: { ...current.params, task: edited, tools_authorized: tools },
        caseId: decision.caseId ?? null,
      },
      checkpoints: [entry],
    };
  }
  if (decision.action !== "reject")
    return {
      current: {
        ...current,
        params: { ...current.params, tools_authorized: request.tools_authorized },
        caseId: decision.caseId ?? null,
      },
      checkpoints: [entry],
    };
  // Rejected: the step runs without the sub-agent, by the run's own expert (through checkpoint 2).
  const reason = reasonOf(decision) ?? "no reason given";
  const query = request.task_description.slice(0, 500);
  const todo = withStep(state.todo, step.id, {
    kind: "tool",
    tool: "knowledge_search",
    params: { query },
    note: `Delegation to ${expert.name} rejected at checkpoint 3 (${reason}): the step runs without the sub-agent`,
  });
  emitTodo(config, todo);
  return {
    todo,
    current: {
      ...current,
      kind: "tool",
      tool: "knowledge_search",
      params: { query },
      thought: `${current.thought} Delegation was rejected; I search myself.`,
    },
    checkpoints: [entry],
  };
}

export const afterGateSpawn = (state: AutonomousStateType) =>
  state.current?.kind === "delegate" ? "delegate" : "gate_tool";

/**
 * The approved delegation: the other expert runs as a specialist (L3) with its own knowledge
 * domains, one worker (L4) per domain in parallel, within the run's limits (depth 3, 5 at once,
 * 20 per run). Every node of the tree is recorded as it starts and ends.
 */
export async function delegate(state: AutonomousStateType, config: LangGraphRunnableConfig): Promise<AutonomousUpdate> {
  const current = state.current;
  const step = state.todo.find((s) => s.id === current?.stepId);
  const root = state.hierarchy[0];
  if (!current || !step?.agent || !root) throw new Error("delegate without an approved expert");
  const run = runContextOf(config);
  const expert = await findRunAgent(run, step.agent);
  const task = taskOf(state);
  const toolsAuthorized = authorisedOf(state, ["knowledge_search"]);
  const siblings = state.hierarchy.filter((n) => n.parentId === root.id).length;
  const specialist: HierarchyNode = {
    id: stableId(run.runId, step.id, String(current.iteration), "l3"),
    parentId: root.id,
    agentId: expert.id,
    agentName: expert.name,
    agentLevel: "l3_specialist",
    taskDescription: task,
    taskStatus: "running",
    depth: 2,
    siblingOrder: siblings,
    toolsUsed: toolsAuthorized,
    tokensUsed: 0,
    costUsd: 0,
  };
  await saveHierarchyNode(run, { ...specialist, parentAgentId: root.agentId });
  emitAgent(config, specialist);
  emit(config, {
    kind: "trace",
    eventType: "subagent_spawn",
    payload: {
      agent: expert.slug,
      level: "l3_specialist",
      task: task.slice(0, 300),
      tools_authorized: toolsAuthorized,
    },
  });

  const budget = AUTONOMOUS_LIMITS.max_sub_agents_per_run - spawnsOf(state) - 1;
  const workerLimit = Math.max(
    0,
    Math.min(AUTONOMOUS_LIMITS.parallel_agent_limit, budget, expert.knowledgeDomains.length || 1),
  );
  const started = Date.now();
  let result: Awaited<ReturnType<typeof runSpecialist>> | null = null;
  let failure: string | null = null;
  try {
    result =
      workerLimit > 0
        ? await runSpecialist({ scope: run, task, expert, workerLimit, toolsAuthorized }, config.signal)
        : null;
    if (!result) failure = "the run has no sub-agents left to spend";
  } catch (error) {
    if (config.signal?.aborted) throw error;
    failure = error instanceof Error ? error.message.slice(0, 300) : "the specialist failed";
  }
  const workers: HierarchyNode[] = (result?.workers ?? []).map((w, i) => ({
    id: stableId(specialist.id, w.domain, "l4"),
    parentId: specialist.id,
    agentId: `${expert.slug}:${w.domain}`,
    agentName: `${expert.name} — ${w.domain} worker`,
    agentLevel: "l4_worker",
    taskDescription: `Search ${w.domain} for: ${task}`.slice(0, 2000),
    taskStatus: w.error ? "failed" : "completed",
    depth: 3,
    siblingOrder: i,
    toolsUsed: ["knowledge_search"],
    tokensUsed: 0,
    costUsd: 0,
  }));
  for (const w of workers) {
    await saveHierarchyNode(run, {
      ...w,
      parentAgentId: expert.id,
      resultData: { found: result?.workers.find((x) => w.agentId.endsWith(`:${x.domain}`))?.passages.length ?? 0 },
    });
    emitAgent(config, w);
  }
  // The specialist's [k] become the run's numbers.
  const { sources, numbers } = addSources(state.sources, result?.passages ?? []);
  const findings = (result?.findings ?? "").replace(/\[(\d{1,4})\]/g, (m, k) =>
    numbers[Number(k) - 1] ? `[${numbers[Number(k) - 1]}]` : m,
  );
  const done: HierarchyNode = {
    ...specialist,
    taskStatus: result ? "completed" : "failed",
    tokensUsed: result?.usage.tokens ?? 0,
    costUsd: result?.usage.costUsd ?? 0,
  };
  await saveHierarchyNode(run, {
    ...done,
    parentAgentId: root.agentId,
    error: failure,
    resultData: result
      ? { findings: findings.slice(0, 4000), citations: numbers, confidence: result.confidence }
      : undefined,
  });
  emitAgent(config, done);
  emit(config, {
    kind: "trace",
    eventType: "subagent_complete",
    durationMs: Date.now() - started,
    payload: {
      agent: expert.slug,
      workers: workers.length,
      sources: numbers.length,
      ...(failure ? { error: failure } : {}),
    },
    touched: result?.workers.flatMap((w) => w.touched),
  });
  const observation = result
    ? `${expert.name} reports: ${findings.slice(0, 1500)}`
    : `${expert.name} could not help: ${failure}`;
  const todo = withStep(state.todo, step.id, {
    status: result ? "done" : "failed",
    ...(result ? {} : { note: failure ?? "failed" }),
    react: {
      iteration: current.iteration,
      thought: current.thought,
      action: `ask_expert(${expert.slug})`,
      observation,
    },
  });
  emitTodo(config, todo);
  return {
    todo,
    sources,
    current: null,
    hierarchy: [...state.hierarchy, done, ...workers],
    usage: { tokens: state.usage.tokens + done.tokensUsed, costUsd: state.usage.costUsd + done.costUsd },
  };
}
