import type { QueryAnchor, ResearchLanguage, ToDoItem } from "./contract";
import { PLAN_MAX_ITEMS } from "./contract";

const FRAMES: Record<
  ResearchLanguage,
  { main: (q: string) => string; aspect: (t: string) => string; refine: (r: string) => string; refs: string }
> = {
  en: {
    main: (q) => `Find the passages that answer the question directly: ${q}`,
    aspect: (t) => `Collect what the documents state about ${t}: requirements, figures and conditions, with page`,
    refine: (r) => `Check the documents for the clarification "${r}"`,
    refs: "Follow the sections and documents the key passages refer to and note what they add",
  },
  de: {
    main: (q) => `Die Passagen finden, die die Frage direkt beantworten: ${q}`,
    aspect: (t) => `Zusammentragen, was die Dokumente zu ${t} sagen: Anforderungen, Zahlen und Bedingungen, mit Seite`,
    refine: (r) => `Die Dokumente auf die Klarstellung „${r}“ prüfen`,
    refs: "Den Abschnitten und Dokumenten folgen, auf die die wichtigsten Passagen verweisen, und festhalten, was sie ergänzen",
  },
};

/**
 * The offline plan: 3–5 tasks, each one specific thing to find and check in the tenant's
 * documents — the direct answer, the anchor's entities one task each (at most two), the user's
 * latest refinement, and the references the passages make.
 */
export function offlinePlan(anchor: QueryAnchor): ToDoItem[] {
  const f = FRAMES[anchor.detected_language];
  const tasks: { task: string; context: string }[] = [
    { task: f.main(anchor.original_query), context: anchor.original_query },
  ];
  for (const entity of anchor.key_entities.slice(0, 2)) tasks.push({ task: f.aspect(entity), context: entity });
  const refinement = anchor.hitl_refinements.at(-1);
  if (refinement) tasks.push({ task: f.refine(refinement.slice(0, 200)), context: refinement });
  if (tasks.length < 5) tasks.push({ task: f.refs, context: anchor.key_entities.join(" ") });
  while (tasks.length < 3) tasks.push({ task: f.aspect(anchor.scope), context: anchor.scope });
  return tasks
    .slice(0, Math.min(5, PLAN_MAX_ITEMS))
    .map((t, i) => ({ id: i + 1, ...t, completed: false, subtasks: [] }));
}

/** Words of the plan's own framing, which a task's search leaves out. */
export const FRAMING_WORDS = new Set(
  Object.values(FRAMES)
    .flatMap((f) => [f.main(""), f.aspect(""), f.refine(""), f.refs])
    .join(" ")
    .toLowerCase()
    .match(/\p{L}+/gu) ?? [],
);

/** What changed between two versions of the plan, as the version history says it. */
export function changeOf(before: ToDoItem[], after: ToDoItem[]): string {
  const key = (t: ToDoItem) => t.task.trim();
  const was = new Set(before.map(key));
  const now = new Set(after.map(key));
  const added = after.filter((t) => !was.has(key(t))).length;
  const removed = before.filter((t) => !now.has(key(t))).length;
  const kept = after.map(key).filter((k) => was.has(k));
  const order = before.map(key).filter((k) => now.has(k));
  const reordered = kept.some((k, i) => k !== order[i]);
  const parts = [
    added ? `added ${added}` : "",
    removed ? `removed ${removed}` : "",
    reordered ? "reordered" : "",
  ].filter(Boolean);
  return parts.length ? parts.join(", ") : "unchanged";
}
