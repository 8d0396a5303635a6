import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { emit, runContextOf } from "@/lib/runs";
import { AUTONOMOUS_LIMITS, type SteeringEntry } from "../../contract";
import { runModelOf } from "../model-call";
import { stepsForSteering, todoOf } from "../planner";
import { emitTodo, withStep } from "../progress";
import { steeringAfter } from "../records";
import type { AutonomousStateType, PendingAction, WorkStep } from "../state";
import { chooseTool } from "../tool-choice";

/** Steps that stay at the end of the plan: new work goes before them. */
const isClosing = (step: WorkStep) => step.kind === "decide" || step.kind === "synthesize";

/** Steps whose tool the model may choose: the planner's and the owner's steering, not a reviewer's own. */
const byModel = (step: WorkStep) => step.origin !== "reviewer" && step.origin !== "replan";

/** Spawns so far, not counting the run's own expert. */
export const spawnsOf = (state: AutonomousStateType) => state.hierarchy.filter((n) => n.depth > 1).length;

/**
 * The ReAct loop's safe point: delivers the owner's steering messages (which re-plan the steps
 * still to do), then chooses the next action — the thought of this iteration. Bounded by
 * autonomous_max_iterations: past it, what is left is skipped and the answer is written.
 */
export async function think(state: AutonomousStateType, config: LangGraphRunnableConfig) {
  const run = runContextOf(config);
  let todo = state.todo;
  const steering: SteeringEntry[] = [...state.steering];
  let steeringSeq = state.steeringSeq;
  for (const message of await steeringAfter(run, run.runId, state.steeringSeq)) {
    const added = stepsForSteering(message.body, message.seq, state.experts).map((s) => ({
      ...todoOf(s, "steering"),
      ...(s.tool ? { risk_level: state.tools.find((t) => t.name === s.tool)?.risk ?? "medium" } : {}),
    }));
    const at = todo.findIndex((s) => s.status === "pending" && isClosing(s));
    todo = at < 0 ? [...todo, ...added] : [...todo.slice(0, at), ...added, ...todo.slice(at)];
    steering.push({
      seq: message.seq,
      message: message.body,
      deliveredAt: state.iterations,
      addedSteps: added.map((s) => s.id),
    });
    steeringSeq = message.seq;
    emit(config, {
      kind: "trace",
      eventType: "steering_message",
      payload: {
        seq: message.seq,
        from: message.createdBy,
        message: message.body.slice(0, 500),
        addedSteps: added.map((s) => s.description),
      },
    });
    emit(config, { kind: "step", message: `Steered: ${added.map((s) => s.description).join("; ")}` });
  }

  const iteration = state.iterations + 1;
  let current: PendingAction;
  // A step whose tool this agent may not use (a reviewer's or a steering step) is skipped, said why.
  const usable = (step: WorkStep) => step.kind !== "tool" || state.tools.some((t) => t.name === step.tool);
  for (const step of todo.filter((s) => s.status === "pending" && !usable(s))) {
    todo = withStep(todo, step.id, {
      status: "skipped",
      note: `Skipped: ${step.agent ? "delegation" : `the tool ${step.tool}`} is not available to this agent`,
    });
  }
  const next = todo.find((s) => s.status === "pending");
  if (iteration > state.maxIterations) {
    todo = todo.map((s) =>
      s.status === "pending" && s.kind !== "synthesize"
        ? { ...s, status: "skipped", note: `Skipped: the run reached ${state.maxIterations} iterations` }
        : s,
    );
    current = {
      stepId: "",
      iteration: state.iterations,
      kind: "done",
      thought: "The iteration limit is reached: write the answer from what was found.",
    };
  } else if (!next) {
    current = {
      stepId: "",
      iteration: state.iterations,
      kind: "done",
      thought: "Every step is done: write the answer.",
    };
  } else if (
    next.kind === "delegate" &&
    (spawnsOf(state) >= AUTONOMOUS_LIMITS.max_sub_agents_per_run || !state.experts.some((e) => e.slug === next.agent))
  ) {
    // No expert to ask (unknown, or the run's spawn budget is spent): the agent searches itself.
    const why = state.experts.some((e) => e.slug === next.agent)
      ? "the run has spawned its 20 sub-agents"
      : `there is no expert "${next.agent}"`;
    todo = withStep(todo, next.id, {
      kind: "tool",
      tool: "knowledge_search",
      params: { query: next.description },
      note: `Re-planned: ${why}`,
    });
    current = {
      stepId: next.id,
      iteration,
      kind: "tool",
      tool: "knowledge_search",
      params: { query: next.description.slice(0, 500) },
      thought: `${next.description}: ${why}, so I search the knowledge base myself.`,
    };
  } else {
    // With a model, it chooses the tool and arguments of a planned or steered step; a step a
    // reviewer wrote or re-planned after a rejection runs as it stands.
    let step = next;
    const model = state.agent && step.kind === "tool" && step.tool && byModel(step) ? runModelOf(state.agent) : null;
    if (model && step.tool) {
      const chosen = await chooseTool(config, model, {
        goal: state.goal,
        step: { description: step.description, tool: step.tool, params: step.params ?? {} },
        tools: state.tools,
      });
      const change = {
        ...(chosen.by === "model"
          ? {
              tool: chosen.tool,
              params: chosen.params,
              risk_level: state.tools.find((t) => t.name === chosen.tool)?.risk ?? "medium",
            }
          : {}),
        ...(chosen.note ? { note: `Tool choice: ${chosen.note}` } : {}),
      };
      step = { ...step, ...change };
      todo = withStep(todo, step.id, change);
    }
    const action =
      step.kind === "tool"
        ? `${step.tool}(${JSON.stringify(step.params ?? {})})`
        : step.kind === "delegate"
          ? `ask_expert(${step.agent})`
          : step.kind;
    current = {
      stepId: step.id,
      iteration,
      kind: step.kind,
      ...(step.tool ? { tool: step.tool } : {}),
      ...(step.params ? { params: step.params } : {}),
      thought: `Step "${step.description}": next action ${action}.`,
    };
  }
  if (current.stepId) {
    todo = withStep(todo, current.stepId, {
      status: "running",
      react: { iteration, thought: current.thought, action: current.tool ?? current.kind, observation: null },
    });
  }
  emitTodo(config, todo);
  return {
    todo,
    steering,
    steeringSeq,
    current,
    iterations: current.stepId ? iteration : state.iterations,
  };
}

/** Where the chosen action goes. */
export function afterThink(state: AutonomousStateType): string {
  switch (state.current?.kind) {
    case "tool":
      return "gate_tool";
    case "delegate":
      return "gate_spawn";
    case "decide":
      return "decide";
    default:
      return "write_answer";
  }
}
