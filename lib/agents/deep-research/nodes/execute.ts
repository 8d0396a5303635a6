import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { keywordsOf } from "@/lib/engine";
import { emit, runContextOf } from "@/lib/runs";
import type { PreservedQuote, TaskSummary, TieredContextEntry, ToDoItem } from "../contract";
import { extractInfo, mentionsAny, quoteOf, relevanceOf, TIER_WEIGHTS, tierOf } from "../evidence";
import { FRAMING_WORDS } from "../plan";
import { fallbackPassages, followReferences, type Passage, search } from "../retrieval";
import type { ResearchStateType } from "../state";
import { answerFormTerms, round, uniqueTerms } from "../terms";
import { agentOf } from "./clarify";
import { emitTodo } from "./plan";

/** The words a task searches with: its own subject words (not the plan's framing), then the anchor's entities. */
export function taskTerms(task: ToDoItem, anchorTerms: string[], language: "de" | "en"): string[] {
  const own = keywordsOf(`${task.task} ${task.context === task.task ? "" : task.context}`, language).filter(
    (w) => !FRAMING_WORDS.has(w.toLowerCase()),
  );
  return uniqueTerms([...own, ...anchorTerms]);
}

/** The next task of the approved list that has not run. */
export const nextTask = (state: ResearchStateType) => state.todo_list?.items.find((t) => !t.completed) ?? null;

/**
 * execute_task: ONE task per graph step (a crash resumes at the next task; nothing repeats):
 * search, extract, quote, tier, follow references, summarise, and mark it done.
 */
export async function executeTask(state: ResearchStateType, config: LangGraphRunnableConfig) {
  const task = nextTask(state);
  const anchor = state.query_anchor;
  if (!task || !anchor || !state.todo_list) return {};
  const scope = runContextOf(config);
  const agent = await agentOf(state, config);
  const items = state.todo_list.items;
  const id = String(task.id);
  emitTodo(config, items, { ...state.task_progress, [id]: { ...state.task_progress[id], status: "running" } });
  emit(config, { kind: "step", message: `Task ${task.id}: ${task.task}` });

  const visited = new Set(state.visited_refs);
  const seenInRun = new Set([...state.primary_context, ...state.secondary_context].map((e) => e.chunk_id));
  const terms = taskTerms(task, anchor.key_entities, anchor.detected_language);
  // Sentences are picked also by the words the question's form asks for ("how long" → days).
  const form = answerFormTerms(anchor.original_query);
  const hits = (await search(scope, terms.join(" "), agent.knowledgeDomains, 10))
    .filter((h) => !seenInRun.has(h.chunkId) && !visited.has(h.chunkId))
    .slice(0, 4);
  // This task's own hits are found directly: a reference from one hit to another must not gather
  // the same passage a second time (as a deeper, weaker entry).
  for (const h of hits) visited.add(h.chunkId);
  const entries: TieredContextEntry[] = [];
  const quotes: PreservedQuote[] = [];
  const searchChunks: {
    chunk: string;
    document: string;
    extracted_info: string;
    references: never[] | ReturnType<typeof refsOf>;
  }[] = [];
  let followed = 0;

  const add = (p: Passage, depth: number, sourceType: "vector_search" | "reference") => {
    const info = extractInfo(p.text, terms, p.section, form);
    if (!info) return;
    const relevance = relevanceOf(p.text, terms);
    const tier = tierOf({ depth, relevance, entityMatch: mentionsAny(p.text, anchor.key_entities), sourceType });
    entries.push({
      chunk: p.text.slice(0, 2000),
      document: p.title,
      page: p.page,
      extracted_info: info,
      relevance_score: relevance,
      context_tier: tier,
      context_weight: TIER_WEIGHTS[tier],
      depth,
      source_type: sourceType,
      chunk_id: p.chunkId,
      document_id: p.documentId,
      section: p.section,
      task_id: task.id,
    });
    const quote = quoteOf(p.text, terms, p.section, form);
    if (quote && tier < 3) {
      quotes.push({
        quote,
        source: p.title,
        page: p.page,
        relevance_reason: `Most relevant sentence for task ${task.id} (${Math.round(relevance * 100)} % of its terms)`,
        chunk_id: p.chunkId,
        document_id: p.documentId,
      });
    }
  };

  for (const hit of hits) {
    add(hit, 0, "vector_search");
    const { found, references } = await followReferences(scope, hit, terms, visited);
    for (const f of found) add(f, f.depth, "reference");
    followed += found.length;
    searchChunks.push({
      chunk: hit.text.slice(0, 2000),
      document: hit.title,
      extracted_info: extractInfo(hit.text, terms),
      references: refsOf(references, terms),
    });
  }

  // The fallback search only when this run turned it on: its results are tertiary, with their URL.
  const external = state.useFallbackSearch ? await fallbackPassages(terms.join(" "), 3, config.signal) : null;
  const web: { title: string; url: string }[] = [];
  for (const p of external?.passages ?? []) {
    const info = extractInfo(p.text, terms, p.section, form);
    if (!info) continue;
    web.push({ title: p.title, url: p.url });
    entries.push({
      chunk: p.text.slice(0, 2000),
      document: p.title,
      page: null,
      extracted_info: info,
      relevance_score: relevanceOf(p.text, terms),
      context_tier: 3,
      context_weight: TIER_WEIGHTS[3],
      depth: 0,
      source_type: "web_search",
      chunk_id: p.chunkId,
      document_id: p.documentId,
      section: p.section,
      task_id: task.id,
      url: p.url,
    });
  }
  if (external && external.searchers.length > 0) {
    emit(config, {
      kind: "trace",
      eventType: "tool_result",
      payload: { tool: "fallback_search", task: task.id, hits: web.length, failures: external.failures },
    });
  }

  const findings = entries
    .filter((e) => e.depth === 0 && e.source_type !== "web_search")
    .map((e) => e.extracted_info)
    .slice(0, 3);
  const summary: TaskSummary = {
    task_id: task.id,
    task: task.task,
    summary: findings.join(" "),
    key_findings: findings,
    relevance_score: entries.length ? round(entries.reduce((s, e) => s + e.relevance_score, 0) / entries.length) : 0,
  };
  const progress = {
    ...state.task_progress,
    [id]: { status: "done" as const, passages: entries.length, quotes: quotes.length, references_followed: followed },
  };
  const done = items.map((t) => (t.id === task.id ? { ...t, completed: true } : t));
  emitTodo(config, done, progress);
  const byTier = (n: 1 | 2 | 3) => entries.filter((e) => e.context_tier === n);
  const ctx = state.research_context;
  return {
    phase: "execute" as const,
    current_task_id: task.id,
    todo_list: { ...state.todo_list, items: done },
    task_progress: progress,
    task_summaries: [summary],
    preserved_quotes: quotes,
    primary_context: [...state.primary_context, ...byTier(1)],
    secondary_context: [...state.secondary_context, ...byTier(2)],
    tertiary_context: [...state.tertiary_context, ...byTier(3)],
    visited_refs: [...visited],
    retrieval_calls: state.retrieval_calls + 1 + (external ? 1 : 0),
    research_context: {
      search_queries: [
        ...ctx.search_queries,
        {
          query: terms.join(" "),
          chunks: searchChunks,
          summary: summary.summary,
          summary_references: [...new Set(entries.map((e) => e.document))],
          quality_score: summary.relevance_score,
          web_search_results: external ? web : null,
        },
      ],
      metadata: {
        total_iterations: state.hitl_iteration,
        documents_referenced: [...new Set([...ctx.metadata.documents_referenced, ...entries.map((e) => e.document)])],
        external_sources_used: ctx.metadata.external_sources_used || web.length > 0,
      },
    },
  };
}

function refsOf(references: Awaited<ReturnType<typeof followReferences>>["references"], terms: string[]) {
  return references.map((r) => ({
    type: r.type,
    target: r.target,
    found: r.found,
    nested_chunks: r.chunks.map((c) => ({
      chunk: c.text.slice(0, 2000),
      document: c.title,
      extracted_info: extractInfo(c.text, terms),
      relevance_score: relevanceOf(c.text, terms),
    })),
  }));
}
