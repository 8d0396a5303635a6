import { END, START, StateGraph } from "@langchain/langgraph";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { paced, type RunnableGraph, type Workflow } from "@/lib/runs";
import { AutonomousInput, type AutonomousPublicState } from "../contract";
import { act, afterGateTool, gateTool } from "./nodes/act";
import { draft, finalReview, finish, validate } from "./nodes/answer";
import { afterDecide, decide } from "./nodes/decide";
import { afterGateSpawn, delegate, gateSpawn } from "./nodes/delegate";
import { approvePlan, plan } from "./nodes/plan";
import { ownSessionIn, runAgentIn, setup } from "./nodes/setup";
import { afterThink, think } from "./nodes/think";
import { runConfigOf } from "./run-summary";
import { AutonomousState, type AutonomousStateType } from "./state";

/** A node that also records its own name once it has run (the state's nodesExecuted). */
function named<A extends unknown[]>(
  name: string,
  node: (...args: A) => Promise<Partial<AutonomousStateType>> | Partial<AutonomousStateType>,
) {
  return async (...args: A): Promise<Partial<AutonomousStateType>> => ({
    ...(await node(...args)),
    nodesExecuted: [name],
  });
}

/**
 * Mode 3, Manual Autonomous: plan (Tree-of-Thoughts) → checkpoint 1 → a ReAct loop over the
 * steps, with checkpoint 2 before risky tools and 3 before delegating to another expert →
 * checkpoint 4 at a decision → constitutional validation → checkpoint 5 → save. Every
 * checkpoint goes through lib/checkpoints; `think` is the loop's safe point for steering. The
 * work nodes are paced background work (lib/runs); the five checkpoint nodes are not, so a
 * stop reaches the inbox, and a decision takes effect, without queueing behind other runs.
 */
export function buildAutonomous(checkpointer: BaseCheckpointSaver): RunnableGraph {
  return new StateGraph(AutonomousState)
    .addNode("setup", paced(named("setup", setup)))
    .addNode("plan", paced(named("plan", plan)))
    .addNode("approve_plan", named("approve_plan", approvePlan))
    .addNode("think", paced(named("think", think)))
    .addNode("gate_tool", named("gate_tool", gateTool))
    .addNode("act", paced(named("act", act)))
    .addNode("gate_spawn", named("gate_spawn", gateSpawn))
    .addNode("delegate", paced(named("delegate", delegate)))
    .addNode("decide", named("decide", decide))
    .addNode("write_answer", paced(named("write_answer", draft)))
    .addNode("validate", paced(named("validate", validate)))
    .addNode("final_review", named("final_review", finalReview))
    .addNode("finish", paced(named("finish", finish)))
    .addEdge(START, "setup")
    .addEdge("setup", "plan")
    .addEdge("plan", "approve_plan")
    .addConditionalEdges("approve_plan", (s) => (s.outcome ? "finish" : "think"), ["finish", "think"])
    .addConditionalEdges("think", afterThink, ["gate_tool", "gate_spawn", "decide", "write_answer"])
    .addConditionalEdges("gate_tool", afterGateTool, ["act", "think"])
    .addEdge("act", "think")
    .addConditionalEdges("gate_spawn", afterGateSpawn, ["delegate", "gate_tool"])
    .addEdge("delegate", "think")
    .addConditionalEdges("decide", afterDecide, ["finish", "think"])
    .addEdge("write_answer", "validate")
    .addEdge("validate", "final_review")
    .addEdge("final_review", "finish")
    .addEdge("finish", END)
    .compile({ checkpointer });
}

export function publicStateOf(values: unknown): AutonomousPublicState {
  const v = (values ?? {}) as Partial<AutonomousStateType>;
  return {
    goal: v.goal ?? "",
    agent: v.agent ? { id: v.agent.id, slug: v.agent.slug, name: v.agent.name } : null,
    safetyLevel: v.safetyLevel ?? "balanced",
    config: runConfigOf(v),
    engine: v.engine ?? null,
    candidates: v.candidates ?? [],
    chosenCandidate: v.chosenCandidate ?? null,
    todo: (v.todo ?? []).map(({ params: _p, ...step }) => step),
    iterations: v.iterations ?? 0,
    hierarchy: v.hierarchy ?? [],
    evidence: v.evidence ?? [],
    decision: v.decision
      ? { options: v.decision.options, recommended: v.decision.recommended, chosen: v.decision.chosen }
      : null,
    validations: v.validations ?? [],
    checkpoints: v.checkpoints ?? [],
    steering: v.steering ?? [],
    answer: v.answer ?? null,
    sources: (v.sources ?? []).map((s) => ({
      n: s.n,
      title: s.title,
      documentId: s.documentId,
      chunkId: s.chunkId,
      text: s.text,
    })),
    outcome: v.outcome ?? null,
    usage: v.usage ?? { tokens: 0, costUsd: 0 },
    startedAt: v.startedAt ?? null,
    finishedAt: v.finishedAt ?? null,
  };
}

export const autonomous: Workflow = {
  name: "autonomous",
  input: AutonomousInput,
  capped: true,
  background: true,
  build: buildAutonomous,
  async prepare(tx, actor, input) {
    // A run names an expert of its own tenant, and a chat session of its starter: refused
    // before anything is stored otherwise.
    const { agentId, sessionId } = input as AutonomousInput;
    const agent = await runAgentIn(tx, agentId);
    if (sessionId) await ownSessionIn(tx, actor.userId, sessionId, agent.id);
  },
  publicState: publicStateOf,
  finishMetadata(values) {
    const state = publicStateOf(values);
    return {
      citations: state.answer?.citations ?? [],
      confidence: state.answer?.confidence ?? 0,
      engine: state.engine,
      outcome: state.outcome,
    };
  },
};
