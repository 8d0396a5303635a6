import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { type CheckpointDecision, statusOf } from "@/lib/checkpoints";
import { emit } from "@/lib/runs";
import type { CheckpointHistoryEntry, HierarchyNode, ReactEntry } from "../contract";
import type { WorkStep } from "./state";

/** The to-do list as the `data-todo` part shows it (one part id: each replaces the last). */
export function emitTodo(config: LangGraphRunnableConfig, todo: WorkStep[]): void {
  emit(config, {
    kind: "data",
    name: "todo",
    id: "todo",
    data: { items: todo.map((s) => ({ id: s.id, task: s.description, status: s.status })) },
  });
}

export function emitAgent(config: LangGraphRunnableConfig, node: HierarchyNode): void {
  emit(config, { kind: "data", name: "agent", id: node.id, data: node });
}

/** The list with one step changed. */
export function withStep(
  todo: WorkStep[],
  id: string,
  change: Partial<Omit<WorkStep, "id" | "react">> & { react?: ReactEntry },
): WorkStep[] {
  return todo.map((step) => {
    if (step.id !== id) return step;
    const { react, ...rest } = change;
    return {
      ...step,
      ...rest,
      react: react ? [...step.react.filter((r) => r.iteration !== react.iteration), react] : step.react,
    };
  });
}

/** The checkpoint history entry of a decided checkpoint. */
export function historyEntry(
  number: number,
  type: string,
  decision: (CheckpointDecision & { caseId?: string }) | { system: true; caseId: string; reason: string },
): CheckpointHistoryEntry {
  if ("system" in decision) {
    return {
      checkpoint_number: number,
      checkpoint_type: type,
      approval_status: "skipped",
      decided_by: "system",
      decided_by_name: "Vigil (safety level)",
      reason: decision.reason,
      case_id: decision.caseId,
    };
  }
  const reason = decision.action === "reject" ? (decision.reason ?? decision.notes ?? null) : (decision.notes ?? null);
  return {
    checkpoint_number: number,
    checkpoint_type: type,
    approval_status: statusOf(decision),
    decided_by: decision.decided_by?.id ?? null,
    decided_by_name: decision.decided_by?.name ?? null,
    reason,
    case_id: decision.caseId ?? null,
  };
}

/** How a run that a checkpoint refused ends: `timed_out` when nobody decided in time, `rejected` when a person did. */
export const endingOf = (decision: CheckpointDecision): "rejected" | "timed_out" =>
  decision.timed_out ? "timed_out" : "rejected";

export const reasonOf = (decision: CheckpointDecision): string | null =>
  decision.action === "reject" ? (decision.reason ?? decision.notes ?? null) : (decision.notes ?? null);
