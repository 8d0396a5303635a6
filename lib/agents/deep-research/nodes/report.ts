import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { emit, runContextOf } from "@/lib/runs";
import { DRIFT_WARNING_RATIO, type FinalReport, RELEVANCE_THRESHOLDS, type TieredContextEntry } from "../contract";
import { relevanceOf } from "../evidence";
import { assessQuality, type Draft, synthesizeOffline, verifyClaim } from "../report";
import { chunkTexts } from "../retrieval";
import type { ResearchStateType } from "../state";
import { round } from "../terms";

const anchorTermsOf = (state: ResearchStateType) => state.query_anchor?.key_entities ?? [];

/** validate_relevance: each entry scored against the anchor; below its tier's threshold it is drift. */
export async function validateRelevance(state: ResearchStateType, config: LangGraphRunnableConfig) {
  const terms = anchorTermsOf(state);
  const keep = (entries: TieredContextEntry[]) =>
    entries.filter(
      (e) => relevanceOf(`${e.document} ${e.section ?? ""} ${e.chunk}`, terms) >= RELEVANCE_THRESHOLDS[e.context_tier],
    );
  const all = [...state.primary_context, ...state.secondary_context, ...state.tertiary_context];
  const primary = keep(state.primary_context);
  const secondary = keep(state.secondary_context);
  const tertiary = keep(state.tertiary_context);
  const filtered = all.length - primary.length - secondary.length - tertiary.length;
  const ratio = all.length === 0 ? 0 : round(filtered / all.length);
  const warning =
    ratio > DRIFT_WARNING_RATIO
      ? `${Math.round(ratio * 100)} % of the gathered context (${filtered} of ${all.length}) was filtered as drift from the question.`
      : null;
  emit(config, {
    kind: "step",
    message: warning ?? `Relevance checked: ${filtered} of ${all.length} entries filtered`,
  });
  return {
    primary_context: primary,
    secondary_context: secondary,
    tertiary_context: tertiary,
    drift: { total: all.length, filtered, ratio, warning },
    phase: "validate" as const,
  };
}

/** synthesize: the offline draft from the tiers, the clarification summary and the quotes, in the question's language. */
export async function synthesize(state: ResearchStateType, config: LangGraphRunnableConfig) {
  const draft = draftOf(state);
  emit(config, {
    kind: "step",
    message: `Synthesised ${draft.claims.length} cited findings from ${draft.sources.length} sources`,
  });
  return { draft_answer: draft.answer, phase: "synthesize" as const };
}

function draftOf(state: ResearchStateType): Draft {
  return synthesizeOffline({
    query: state.query,
    language: state.query_anchor?.detected_language ?? "en",
    tasks: state.todo_list?.items ?? [],
    tiers: [...state.primary_context, ...state.secondary_context, ...state.tertiary_context],
    summaries: state.task_summaries,
    quotes: state.preserved_quotes,
    clarification: state.hitl_context_summary,
  });
}

async function checked(state: ResearchStateType, config: LangGraphRunnableConfig) {
  const draft = draftOf(state);
  const stored = await chunkTexts(
    runContextOf(config),
    draft.sources.map((s) => s.chunk_id),
  );
  // A fallback result is no row of the knowledge base: its snippet as fetched is its evidence.
  for (const e of state.tertiary_context) if (e.source_type === "web_search") stored.set(e.chunk_id, e.chunk);
  const texts = new Map(draft.sources.map((s) => [s.n, stored.get(s.chunk_id)]));
  const claims = draft.claims.map((c) => verifyClaim(c, texts));
  return { draft, claims, stored };
}

/** quality_check: 0–400 over the four dimensions, each computed from the report. */
export async function qualityCheck(state: ResearchStateType, config: LangGraphRunnableConfig) {
  const { draft, claims } = await checked(state, config);
  const tasks = state.todo_list?.items ?? [];
  const sourceTask = new Map(
    [...state.primary_context, ...state.secondary_context, ...state.tertiary_context].map((e) => [
      e.chunk_id,
      e.task_id,
    ]),
  );
  const claimsByTask = tasks.map(
    (t) => claims.filter((c) => c.sources.some((n) => sourceTask.get(draft.sources[n - 1]?.chunk_id) === t.id)).length,
  );
  const quality = assessQuality({
    answer: draft.answer,
    anchorTerms: anchorTermsOf(state),
    tasks,
    claimsByTask,
    claims,
    framing: draft.framing,
    language: state.query_anchor?.detected_language ?? "en",
  });
  emit(config, { kind: "step", message: `Quality ${quality.total}/400` });
  return { quality_assessment: quality };
}

/** attribute_sources: the FinalReport — answer, findings by tier, claims checked, quotes, sources, quality. */
export async function attributeSources(state: ResearchStateType, config: LangGraphRunnableConfig) {
  const { draft, claims, stored } = await checked(state, config);
  const cited = new Set(draft.sources.map((s) => s.chunk_id));
  const quotes = state.preserved_quotes.filter(
    (q) => cited.has(q.chunk_id) && stored.get(q.chunk_id)?.includes(q.quote),
  );
  const report: FinalReport = {
    query: state.query,
    language: state.query_anchor?.detected_language ?? "en",
    answer: draft.answer,
    findings: {
      primary: state.primary_context.map((e) => e.extracted_info),
      secondary: state.secondary_context.map((e) => e.extracted_info),
      tertiary: state.tertiary_context.map((e) => e.extracted_info),
    },
    claims,
    quotes,
    sources: draft.sources,
    quality: state.quality_assessment ?? { total: 0, dimensions: {} as FinalReport["quality"]["dimensions"] },
    termination_reason: state.hitl_termination_reason,
    drift_warning: state.drift?.warning ?? null,
    engine: state.engine,
    created_at: new Date().toISOString(),
  };
  emit(config, {
    kind: "step",
    message: `Report: ${claims.filter((c) => c.verified).length} of ${claims.length} claims verified`,
  });
  for (const s of draft.sources) {
    emit(config, {
      kind: "source",
      source: { kind: "document", sourceId: s.chunk_id, title: s.document, mediaType: "text/plain" },
    });
  }
  return { final_report: report, phase: "done" as const };
}
