import { interrupt, type LangGraphRunnableConfig } from "@langchain/langgraph";
import { emit, runContextOf } from "@/lib/runs";
import { findRunAgent } from "../../autonomous/nodes/setup";
import { safetyLevelOf } from "../../autonomous/safety";
import { sealAnchor } from "../anchor";
import { converged, queriesFor, questionsFor, terminationAfter } from "../clarify";
import {
  type ClarificationInterrupt,
  type FoundPassage,
  HITL_MAX_ITERATIONS_DEFAULT,
  type TieredContextEntry,
} from "../contract";
import { detectLanguage } from "../language";
import { askModel, engineAtStart, fellBack } from "../model";
import { gapsRequest, queriesRequest, questionsRequest } from "../model-phases";
import { search } from "../retrieval";
import { ClarificationResponse, type ResearchStateType } from "../state";
import { coverageOf, questionTerms, round, uniqueTerms } from "../terms";

type Node = (state: ResearchStateType, config: LangGraphRunnableConfig) => Promise<Partial<ResearchStateType>>;

const step = (config: LangGraphRunnableConfig, message: string) => emit(config, { kind: "step", message });

/** The run's expert, loaded once. */
export async function agentOf(state: ResearchStateType, config: LangGraphRunnableConfig) {
  if (state.agent) return state.agent;
  return agentOfRow(await findRunAgent(runContextOf(config), state.agentId));
}

const agentOfRow = (a: Awaited<ReturnType<typeof findRunAgent>>) => ({
  id: a.id,
  slug: a.slug,
  name: a.name,
  knowledgeDomains: a.knowledgeDomains,
  model: a.model,
  temperature: a.temperature,
});

/**
 * The run's first node loads the expert and fixes the engine for the whole run: the model's
 * name when one is configured, else "offline".
 */
export async function startOf(state: ResearchStateType, config: LangGraphRunnableConfig) {
  if (state.agent) return { agent: state.agent };
  const row = await findRunAgent(runContextOf(config), state.agentId);
  const agent = agentOfRow(row);
  const { engine, fallback } = engineAtStart(agent);
  step(config, engine === "offline" ? "Engine: offline (no model configured)" : `Engine: ${engine}`);
  if (fallback) step(config, fellBack(fallback));
  // The level fixed at the start, as an autonomous run's: who approves the plan follows it.
  const safetyLevel = state.safetyLevel ?? safetyLevelOf(row.defaultSafetyLevel as "low" | "medium" | "high");
  return { agent, engine, safetyLevel, ...(fallback ? { engine_fallbacks: [fallback] } : {}) };
}

/** hitl_init: detect the language, read the question's concepts and entities, open the conversation. */
export const hitlInit: Node = async (state, config) => {
  const language = detectLanguage(state.query);
  const terms = questionTerms(state.query, language);
  step(config, `Language ${language}; ${terms.concepts.length} concepts, ${terms.entities.length} entities`);
  return {
    ...(await startOf(state, config)),
    detected_language: language,
    key_concepts: terms.concepts,
    entities: terms.entities,
    hitl_active: true,
    hitl_max_iterations: state.maxIterations ?? HITL_MAX_ITERATIONS_DEFAULT,
    phase: "clarify",
    hitl_conversation_history: [{ role: "user", content: state.query, iteration: 0 }],
  };
};

/** hitl_generate_queries: the iteration's three queries (the model's when it has one, else from the question's terms). */
export const hitlGenerateQueries: Node = async (state, config) => {
  const input = {
    query: state.query,
    concepts: state.key_concepts,
    entities: state.entities,
    gaps: state.knowledge_gaps,
    refinements: state.hitl_refinements,
    language: state.detected_language ?? "en",
  };
  const asked = await askModel(state, config, queriesRequest(input));
  if (asked && !asked.ok) step(config, fellBack(asked.fallback));
  const queries = asked?.ok ? asked.output.queries : queriesFor(input);
  step(config, `Iteration ${state.hitl_iteration + 1}: ${queries.map((q) => `"${q}"`).join(", ")}`);
  return { iteration_queries: [queries], ...(asked && !asked.ok ? { engine_fallbacks: [asked.fallback] } : {}) };
};

/**
 * hitl_retrieve_chunks: each query against the tenant's documents. A passage seen before in this
 * run (an earlier query of this iteration or an earlier iteration) is a duplicate; the iteration's
 * dedup ratio is duplicates / retrieved — how saturated retrieval is, which convergence asks ≥ 0.7.
 */
export const hitlRetrieveChunks: Node = async (state, config) => {
  const agent = await agentOf(state, config);
  const queries = state.iteration_queries.at(-1) ?? [state.query];
  const seen = new Set(state.seen_chunks);
  const passages: FoundPassage[] = [];
  let retrieved = 0;
  let duplicates = 0;
  for (const query of queries) {
    for (const hit of await search(runContextOf(config), query, agent.knowledgeDomains)) {
      retrieved++;
      if (seen.has(hit.chunkId)) {
        duplicates++;
        continue;
      }
      seen.add(hit.chunkId);
      passages.push({
        chunk_id: hit.chunkId,
        document_id: hit.documentId,
        document: hit.title,
        page: hit.page,
        section: hit.section,
        excerpt: hit.text.slice(0, 1200),
        score: hit.score,
      });
    }
  }
  const ratio = retrieved === 0 ? 0 : round(duplicates / retrieved);
  step(config, `Retrieved ${retrieved} passages, ${passages.length} new (dedup ratio ${ratio})`);
  return {
    agent,
    seen_chunks: [...seen],
    retrieval_dedup_ratios: [ratio],
    retrieval_calls: state.retrieval_calls + queries.length,
    retrieval_history: [
      ...state.retrieval_history,
      {
        iteration: state.hitl_iteration + 1,
        queries,
        retrieved,
        unique: passages.length,
        dedup_ratio: ratio,
        coverage_score: 0,
        knowledge_gaps: [],
        passages,
      },
    ],
  };
};

/** How many gaps a model may add to the measured ones in one iteration. */
const MODEL_GAPS_MAX = 3;

/**
 * hitl_analyze_retrieval: coverage of the question's concepts and entities over everything found
 * so far; the gaps. Coverage is always measured; a model may only add gaps it sees (and its
 * reading of the iteration is kept with it), never raise the coverage.
 */
export const hitlAnalyzeRetrieval: Node = async (state, config) => {
  const language = state.detected_language ?? "en";
  const terms = uniqueTerms([...state.entities, ...state.key_concepts], language);
  const found = state.retrieval_history.flatMap((r) => r.passages);
  const { coverage, gaps: measured } = coverageOf(
    terms,
    found.map((p) => p.excerpt),
    language,
  );
  const asked = await askModel(
    state,
    config,
    gapsRequest({ query: state.query, refinements: state.hitl_refinements, coverage, gaps: measured, passages: found }),
  );
  if (asked && !asked.ok) step(config, fellBack(asked.fallback));
  const known = new Set(measured.map((g) => g.toLowerCase()));
  const added = asked?.ok
    ? uniqueTerms(asked.output.gaps.filter((g) => !known.has(g.toLowerCase()))).slice(0, MODEL_GAPS_MAX)
    : [];
  const gaps = [...measured, ...added];
  const judgement = asked?.ok
    ? {
        concepts: asked.output.concepts,
        entities: asked.output.entities,
        added_gaps: added,
        coverage: asked.output.coverage,
      }
    : null;
  const ratio = state.retrieval_dedup_ratios.at(-1) ?? 0;
  const done = converged(coverage, ratio, gaps.length);
  const history = state.retrieval_history.map((r, i, all) =>
    i === all.length - 1 ? { ...r, coverage_score: coverage, knowledge_gaps: gaps, judgement } : r,
  );
  step(config, `Coverage ${coverage}, ${gaps.length} gaps${done ? ": converged" : ""}`);
  return {
    coverage_score: coverage,
    knowledge_gaps: gaps,
    retrieval_history: history,
    ...(asked && !asked.ok ? { engine_fallbacks: [asked.fallback] } : {}),
    ...(done ? { hitl_termination_reason: "convergence" as const, hitl_active: false } : {}),
  };
};

/** hitl_generate_questions: 2–3 questions from the gaps, in the question's language. */
export const hitlGenerateQuestions: Node = async (state, config) => {
  const language = state.detected_language ?? "en";
  const asked = await askModel(
    state,
    config,
    questionsRequest({
      query: state.query,
      language,
      gaps: state.knowledge_gaps,
      coverage: state.coverage_score,
      refinements: state.hitl_refinements,
    }),
  );
  if (asked && !asked.ok) step(config, fellBack(asked.fallback));
  const questions = asked?.ok ? asked.output.questions : questionsFor(state.knowledge_gaps, language);
  step(config, `Asked ${questions.length} questions`);
  return {
    ...(asked && !asked.ok ? { engine_fallbacks: [asked.fallback] } : {}),
    hitl_questions: questions,
    hitl_conversation_history: [
      { role: "assistant", content: questions.join("\n"), iteration: state.hitl_iteration + 1 },
    ],
  };
};

/**
 * hitl_process_response: waits for the user's answer (the run stops here; `POST
 * /api/runs/{id}/resume {"value":{"response"}}` continues it), then decides whether to go on.
 */
export const hitlProcessResponse: Node = async (state, config) => {
  const request: ClarificationInterrupt = {
    kind: "research_clarification",
    iteration: state.hitl_iteration + 1,
    questions: state.hitl_questions,
    coverage_score: state.coverage_score,
    knowledge_gaps: state.knowledge_gaps,
  };
  const { response } = ClarificationResponse.parse(interrupt(request));
  const iteration = state.hitl_iteration + 1;
  const reason = terminationAfter(response, iteration, state.hitl_max_iterations);
  emit(config, {
    kind: "trace",
    eventType: "hitl_response",
    payload: { research: "clarification", iteration, ended: reason },
  });
  const turn = { role: "user" as const, content: response, iteration };
  if (reason === "user_end")
    return {
      hitl_iteration: iteration,
      hitl_termination_reason: reason,
      hitl_active: false,
      hitl_conversation_history: [turn],
    };
  const refinements = [...state.hitl_refinements, response];
  const language = state.detected_language ?? "en";
  const added = questionTerms(response, language);
  return {
    hitl_iteration: iteration,
    hitl_conversation_history: [turn],
    hitl_refinements: refinements,
    key_concepts: uniqueTerms([...state.key_concepts, ...added.concepts]),
    entities: uniqueTerms([...state.entities, ...added.entities]),
    ...(reason ? { hitl_termination_reason: reason, hitl_active: false } : {}),
  };
};

/** hitl_finalize: the QueryAnalysis and the immutable, hashed query_anchor (its hash goes to the trace). */
export const hitlFinalize: Node = async (state, config) => {
  const language = state.detected_language ?? detectLanguage(state.query);
  const terms =
    state.key_concepts.length + state.entities.length > 0
      ? { concepts: state.key_concepts, entities: state.entities }
      : questionTerms(state.query, language);
  const reason = state.hitl_termination_reason ?? "user_end";
  const scope = state.hitl_refinements.length > 0 ? state.hitl_refinements.join("; ") : terms.concepts.join(", ");
  const anchor =
    state.query_anchor ??
    sealAnchor({
      original_query: state.query,
      detected_language: language,
      key_entities: uniqueTerms([...terms.entities, ...terms.concepts]),
      scope,
      hitl_refinements: state.hitl_refinements,
      created_at: new Date().toISOString(),
    });
  emit(config, {
    kind: "trace",
    eventType: "hitl_response",
    payload: { research: "query_anchor", hash: anchor.hash, termination_reason: reason },
  });
  step(config, `Clarification ended (${reason}); query anchor ${anchor.hash.slice(0, 12)}`);
  const found = state.retrieval_history.flatMap((r) => r.passages);
  const summary = [
    ...state.hitl_refinements.map((r) => `– ${r}`),
    ...(state.knowledge_gaps.length > 0
      ? [`${language === "de" ? "Offene Lücken" : "Open gaps"}: ${state.knowledge_gaps.join(", ")}`]
      : []),
  ].join("\n");
  const tertiary: TieredContextEntry[] = found.slice(0, 5).map((p) => ({
    chunk: p.excerpt,
    document: p.document,
    page: p.page,
    extracted_info: p.excerpt.slice(0, 400),
    relevance_score: 0,
    context_tier: 3,
    context_weight: 0.3,
    depth: 0,
    source_type: "hitl",
    chunk_id: p.chunk_id,
    document_id: p.document_id,
    section: p.section,
    task_id: null,
  }));
  return {
    // A run that skips clarification starts here.
    ...(await startOf(state, config)),
    detected_language: language,
    key_concepts: terms.concepts,
    entities: terms.entities,
    hitl_active: false,
    hitl_termination_reason: reason,
    hitl_context_summary: summary,
    tertiary_context: tertiary,
    query_analysis: {
      original_query: state.query,
      key_concepts: terms.concepts,
      entities: terms.entities,
      scope,
      assumed_context: found.slice(0, 5).map((p) => p.document),
      clarification_needed: state.hitl_refinements.length > 0,
      hitl_refinements: state.hitl_refinements,
    },
    query_anchor: anchor,
    phase: "plan",
  };
};
