import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { keywordsOf, phrasingTermsOf } from "@/lib/engine";
import { emit, runContextOf } from "@/lib/runs";
import type { EngineFallback, PreservedQuote, TaskSummary, TieredContextEntry, ToDoItem } from "../contract";
import { extractInfo, mentionsAny, quoteOf, relevanceOf, TIER_WEIGHTS, tierOf } from "../evidence";
import { askModel, fellBack } from "../model";
import { classificationRequest, extractionRequest } from "../model-phases";
import { FRAMING_WORDS } from "../plan";
import { REFERENCE_MAX_DEPTH } from "../references";
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
  return uniqueTerms([...own, ...anchorTerms], language);
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
  // Terms match in the run's language: a German run's sentences are read with German stems.
  const language = anchor.detected_language;
  const terms = taskTerms(task, anchor.key_entities, language);
  // Sentences are picked also by the words the question's form asks for ("how long" → days).
  const form = answerFormTerms(anchor.original_query);
  // …and the words that only phrase the question weigh half, as in Ask Expert (evidence.ts).
  const phrasing = phrasingTermsOf(anchor.original_query, language);
  // Each hit keeps the rank the search gave it among all it returned, gathered ones included:
  // validate_relevance keeps the search's best passages for the question (evidence.ts).
  const hits = (await search(scope, terms.join(" "), agent.knowledgeDomains, 10))
    .map((h, rank) => ({ ...h, rank }))
    .filter((h) => !seenInRun.has(h.chunkId) && !visited.has(h.chunkId))
    .slice(0, 4);
  // This task's own hits are found directly: a reference from one hit to another must not gather
  // the same passage a second time (as a deeper, weaker entry).
  for (const h of hits) visited.add(h.chunkId);
  const searchChunks: {
    chunk: string;
    document: string;
    extracted_info: string;
    references: never[] | ReturnType<typeof refsOf>;
  }[] = [];
  // Every passage of the task first (found directly, then by the references they make), so a
  // model reads them together: one extraction call and one classification call per task.
  const found: { p: Passage; depth: number; sourceType: "vector_search" | "reference"; rank?: number }[] = [];
  let followed = 0;
  for (const hit of hits) {
    found.push({ p: hit, depth: 0, sourceType: "vector_search", rank: hit.rank });
    const { found: refs, references } = await followReferences(
      scope,
      hit,
      terms,
      visited,
      REFERENCE_MAX_DEPTH,
      language,
    );
    for (const f of refs) found.push({ p: f, depth: f.depth, sourceType: "reference" });
    followed += refs.length;
    searchChunks.push({
      chunk: hit.text.slice(0, 2000),
      document: hit.title,
      extracted_info: extractInfo(hit.text, terms, null, [], language),
      references: refsOf(references, terms, language),
    });
  }

  const numbered = found.map((f, i) => ({
    n: i + 1,
    document: f.p.title,
    page: f.p.page,
    section: f.p.section,
    text: f.p.text,
  }));
  const fallbacks: EngineFallback[] = [];
  const extraction =
    found.length > 0
      ? await askModel(
          state,
          config,
          extractionRequest({ query: anchor.original_query, task: task.task, taskId: task.id, passages: numbered }),
        )
      : null;
  if (extraction && !extraction.ok) fallbacks.push(extraction.fallback);
  const modelExtract = new Map(extraction?.ok ? extraction.output.passages.map((x) => [x.n, x]) : []);
  const infos = found.map((f, i) => {
    const mine = modelExtract.get(i + 1);
    return mine?.extracted_info
      ? mine.extracted_info
      : extractInfo(f.p.text, terms, f.p.section, form, language, phrasing);
  });
  const classification =
    found.length > 0
      ? await askModel(
          state,
          config,
          classificationRequest({
            query: anchor.original_query,
            task: task.task,
            taskId: task.id,
            entities: anchor.key_entities,
            passages: numbered.map((x, i) => ({ ...x, depth: found[i].depth, extracted_info: infos[i] })),
          }),
        )
      : null;
  if (classification && !classification.ok) fallbacks.push(classification.fallback);
  const modelTier = new Map(classification?.ok ? classification.output.passages.map((x) => [x.n, x.tier]) : []);
  for (const f of fallbacks) emit(config, { kind: "step", message: fellBack(f) });

  const entries: TieredContextEntry[] = [];
  const quotes: PreservedQuote[] = [];
  let dropped = 0;
  found.forEach(({ p, depth, sourceType, rank }, i) => {
    const info = infos[i];
    if (!info) return;
    const relevance = relevanceOf(p.text, terms, language);
    const offlineTier = tierOf({
      depth,
      relevance,
      entityMatch: mentionsAny(p.text, anchor.key_entities, language),
      sourceType,
    });
    const asked = modelTier.get(i + 1);
    // A model may grade a passage down, or up to what its path allows: reached by a reference, it is not primary.
    const tier = asked === undefined ? offlineTier : (Math.max(asked, Math.min(depth + 1, 3)) as 1 | 2 | 3);
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
      ...(rank === undefined ? {} : { search_rank: rank }),
    });
    if (tier === 3) return;
    const mine = modelExtract.get(i + 1);
    const candidates = mine
      ? mine.quotes.map((q) => ({ quote: q.quote, reason: q.relevance_reason }))
      : [{ quote: quoteOf(p.text, terms, p.section, form, language, phrasing), reason: null }];
    for (const c of candidates) {
      if (!c.quote) continue;
      // A preserved quote is an exact substring of its chunk, or it is not kept.
      if (!p.text.includes(c.quote)) {
        dropped++;
        continue;
      }
      quotes.push({
        quote: c.quote,
        source: p.title,
        page: p.page,
        relevance_reason:
          c.reason || `Most relevant sentence for task ${task.id} (${Math.round(relevance * 100)} % of its terms)`,
        chunk_id: p.chunkId,
        document_id: p.documentId,
      });
    }
  });
  if (dropped > 0)
    emit(config, { kind: "step", message: `Dropped ${dropped} quotes that are not verbatim in their passage` });

  // The fallback search only when this run turned it on: its results are tertiary, with their URL.
  const external = state.useFallbackSearch ? await fallbackPassages(terms.join(" "), 3, config.signal) : null;
  const web: { title: string; url: string }[] = [];
  for (const p of external?.passages ?? []) {
    const info = extractInfo(p.text, terms, p.section, form, language, phrasing);
    if (!info) continue;
    web.push({ title: p.title, url: p.url });
    entries.push({
      chunk: p.text.slice(0, 2000),
      document: p.title,
      page: null,
      extracted_info: info,
      relevance_score: relevanceOf(p.text, terms, language),
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
    quotes_dropped: state.quotes_dropped + dropped,
    ...(fallbacks.length ? { engine_fallbacks: fallbacks } : {}),
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

function refsOf(
  references: Awaited<ReturnType<typeof followReferences>>["references"],
  terms: string[],
  language: "de" | "en",
) {
  return references.map((r) => ({
    type: r.type,
    target: r.target,
    found: r.found,
    nested_chunks: r.chunks.map((c) => ({
      chunk: c.text.slice(0, 2000),
      document: c.title,
      extracted_info: extractInfo(c.text, terms, null, [], language),
      relevance_score: relevanceOf(c.text, terms, language),
    })),
  }));
}
