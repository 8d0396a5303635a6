import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { awaitDecision, simplePlanApproval } from "@/lib/checkpoints";
import { emit } from "@/lib/runs";
import { PLAN_MAX_ITEMS, type PlanVersion, type TaskProgress, type ToDoItem } from "../contract";
import { askModel, fellBack } from "../model";
import { planRequest } from "../model-phases";
import { changeOf, offlinePlan } from "../plan";
import type { ResearchStateType } from "../state";

export function emitTodo(config: LangGraphRunnableConfig, items: ToDoItem[], progress: Record<string, TaskProgress>) {
  emit(config, {
    kind: "data",
    name: "todo",
    id: "todo",
    data: {
      items: items.map((t) => ({
        id: String(t.id),
        task: t.task,
        ...progress[String(t.id)],
        status: progress[String(t.id)]?.status ?? (t.completed ? "done" : "pending"),
      })),
    },
  });
}

const pending = (items: ToDoItem[]): Record<string, TaskProgress> =>
  Object.fromEntries(
    items.map((t) => [String(t.id), { status: "pending", passages: 0, quotes: 0, references_followed: 0 }]),
  );

/** generate_todo: 3–5 specific, checkable tasks from the anchor (the model's when it has one; max 15); version 1 of the plan. */
export async function generateTodo(state: ResearchStateType, config: LangGraphRunnableConfig) {
  const anchor = state.query_anchor;
  if (!anchor) throw new Error("hitl_finalize did not run");
  const asked = await askModel(
    state,
    config,
    planRequest({
      query: anchor.original_query,
      language: anchor.detected_language,
      entities: anchor.key_entities,
      scope: anchor.scope,
      refinements: anchor.hitl_refinements,
      clarification: state.hitl_context_summary,
    }),
  );
  if (asked && !asked.ok) emit(config, { kind: "step", message: fellBack(asked.fallback) });
  const items: ToDoItem[] = asked?.ok
    ? asked.output.tasks
        .slice(0, PLAN_MAX_ITEMS)
        .map((t, i) => ({ id: i + 1, task: t.task, context: t.context || t.task, completed: false, subtasks: [] }))
    : offlinePlan(anchor);
  const version: PlanVersion = {
    version: 1,
    items,
    changed_by: null,
    changed_at: new Date().toISOString(),
    change: "generated",
    feedback: null,
  };
  emit(config, {
    kind: "trace",
    eventType: "hitl_response",
    payload: { research: "plan_version", version: 1, change: "generated", items: items.map((i) => i.task) },
  });
  emit(config, { kind: "step", message: `Planned ${items.length} tasks` });
  const progress = pending(items);
  emitTodo(config, items, progress);
  return {
    todo_list: { items, max_items: PLAN_MAX_ITEMS },
    plan_versions: [version],
    task_progress: progress,
    phase: "plan" as const,
    ...(asked && !asked.ok ? { engine_fallbacks: [asked.fallback] } : {}),
  };
}

/**
 * hitl_approve_todo: a plan_approval checkpoint (inbox, REST, MCP). An edit becomes the to-do
 * list — exactly its steps, in its order — and a new kept version with who, when, what changed
 * and the feedback, also written to the audit trail; a rejection ends the run without research.
 */
export async function hitlApproveTodo(state: ResearchStateType, config: LangGraphRunnableConfig) {
  const items = state.todo_list?.items ?? [];
  const request = simplePlanApproval(
    items.map((t) => ({ id: String(t.id), description: t.task })),
    { durationSeconds: items.length * 10, costUsd: 0 },
  );
  const decision = await awaitDecision(config, "plan_approval", request, {
    reasoning: `Research plan for: ${state.query.slice(0, 500)}`,
    title: `Research plan: ${state.query.slice(0, 200)}`,
    // The checkpoint carries the run's level: the tenant's `<level>.plan_approval` rule decides
    // who may approve, at every door (resume, the case decision route, MCP, the inbox).
    ...(state.safetyLevel ? { safetyLevel: state.safetyLevel } : {}),
  });
  const who = decision.decided_by ? { id: decision.decided_by.id, name: decision.decided_by.name ?? null } : null;
  const feedback = (decision.action === "reject" ? (decision.reason ?? decision.notes) : decision.notes) ?? null;
  if (decision.action === "reject") {
    emit(config, {
      kind: "trace",
      eventType: "hitl_response",
      payload: { research: "plan_rejected", by: who?.id ?? null, feedback },
    });
    return { plan_rejected: feedback ?? "The plan was rejected.", phase: "done" as const };
  }
  if (decision.action !== "edit") return { phase: "execute" as const };
  const steps = (decision.edit.plan_steps ?? []) as { id: string; description: string }[];
  const byId = new Map(items.map((t) => [String(t.id), t]));
  let next = Math.max(0, ...items.map((t) => t.id)) + 1;
  const edited: ToDoItem[] = steps.slice(0, PLAN_MAX_ITEMS).map((s) => {
    const original = byId.get(s.id);
    if (original && original.task === s.description) return original;
    return {
      id: original ? original.id : next++,
      task: s.description,
      context: s.description,
      completed: false,
      subtasks: [],
    };
  });
  const version: PlanVersion = {
    version: state.plan_versions.length + 1,
    items: edited,
    changed_by: who,
    changed_at: new Date().toISOString(),
    change: changeOf(items, edited),
    feedback,
  };
  emit(config, {
    kind: "trace",
    eventType: "hitl_response",
    payload: {
      research: "plan_version",
      version: version.version,
      change: version.change,
      by: who?.id ?? null,
      feedback,
      items: edited.map((i) => i.task),
    },
  });
  const progress = pending(edited);
  emitTodo(config, edited, progress);
  return {
    todo_list: { items: edited, max_items: PLAN_MAX_ITEMS },
    plan_versions: [version],
    task_progress: progress,
    phase: "execute" as const,
  };
}
