// Which step a run's pending checkpoint is about. The run records the step it works on as
// `running` and asks at the checkpoint before acting; the page shows that step as waiting for
// approval, with the checkpoint under it. The plan and the final answer concern the whole run.
import type { CheckpointPart, TodoItem } from "./api";

const WHOLE_RUN = new Set(["plan_approval", "final_review", "clarification"]);

export function checkpointStepId(todo: TodoItem[], waitingOn: CheckpointPart | null): string | null {
  if (!waitingOn || WHOLE_RUN.has(waitingOn.type)) return null;
  const running = todo.filter((step) => step.status === "running");
  const request = waitingOn.request;
  const fits = (step: TodoItem) => {
    switch (waitingOn.type) {
      case "tool_execution":
        return step.tool === request.tool_name;
      case "subagent_spawn":
        return step.kind === "delegate";
      case "critical_decision":
        return step.kind === "decide";
      default:
        return false;
    }
  };
  return (running.find(fits) ?? running[0])?.id ?? null;
}

/** The step as the page shows it: `waiting` while a checkpoint about it is pending. */
export function shownStatus(step: TodoItem, waitingStepId: string | null): TodoItem["status"] {
  return step.id === waitingStepId && step.status === "running" ? "waiting" : step.status;
}
