import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { checkCitations } from "@/lib/engine";
import { emit, runContextOf } from "@/lib/runs";
import { DRIFT_WARNING_RATIO, type EngineFallback, type FinalReport, type TieredContextEntry } from "../contract";
import { relevantEntries } from "../evidence";
import { askModel, fellBack } from "../model";
import { LANGUAGE_NAMES, languageProblem, proseOf, synthesisRequest } from "../model-phases";
import { assessQuality, type Draft, numberSources, synthesizeOffline, verifyClaim } from "../report";
import { chunkTexts } from "../retrieval";
import type { ResearchStateType } from "../state";
import { round } from "../terms";

const anchorTermsOf = (state: ResearchStateType) => state.query_anchor?.key_entities ?? [];

/** validate_relevance: each entry scored against the anchor; below its tier's threshold it is drift. */
export async function validateRelevance(state: ResearchStateType, config: LangGraphRunnableConfig) {
  const terms = anchorTermsOf(state);
  const language = state.query_anchor?.detected_language ?? "en";
  const all = [...state.primary_context, ...state.secondary_context, ...state.tertiary_context];
  const kept = new Set(relevantEntries(all, terms, language));
  const keep = (entries: TieredContextEntry[]) => entries.filter((e) => kept.has(e));
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

/**
 * synthesize: the draft from the tiers and the clarification summary (a model is given the
 * preserved quotes too), in the question's language — the model's when it has one and writes in that language (one retry
 * when it does not), else the offline synthesis. The draft is kept: quality_check and
 * attribute_sources check this one, never a second rendering.
 */
export async function synthesize(state: ResearchStateType, config: LangGraphRunnableConfig) {
  const { draft: written, fallback } = await modelDraft(state, config);
  if (fallback) emit(config, { kind: "step", message: fellBack(fallback) });
  const draft = written ?? draftOf(state);
  emit(config, {
    kind: "step",
    message: `Synthesised ${draft.claims.length} cited findings from ${draft.sources.length} sources`,
  });
  return {
    draft,
    draft_answer: draft.answer,
    phase: "synthesize" as const,
    ...(fallback ? { engine_fallbacks: [fallback] } : {}),
  };
}

/** The model's draft, or null (with the reason when a model was asked) for the offline one. */
async function modelDraft(
  state: ResearchStateType,
  config: LangGraphRunnableConfig,
): Promise<{ draft: Draft | null; fallback: EngineFallback | null }> {
  const language = state.query_anchor?.detected_language ?? "en";
  const tiers = [...state.primary_context, ...state.secondary_context, ...state.tertiary_context];
  const { sources, numberOf } = numberSources(tiers);
  // Nothing found: the offline draft says so in the question's language; there is nothing to ask about.
  if (sources.length === 0) return { draft: null, fallback: null };
  const entryOf = new Map(tiers.map((e) => [e.chunk_id, e]));
  const input = {
    query: state.query,
    language,
    tasks: (state.todo_list?.items ?? []).map((t) => t.task),
    clarification: state.hitl_context_summary,
    sources: sources.map((s) => ({
      n: s.n,
      document: s.document,
      page: s.page,
      section: s.section,
      text: entryOf.get(s.chunk_id)?.chunk ?? s.excerpt,
      tier: s.tier,
      extracted_info: entryOf.get(s.chunk_id)?.extracted_info ?? "",
    })),
    quotes: state.preserved_quotes
      .filter((q) => numberOf.has(q.chunk_id))
      .map((q) => ({ quote: q.quote, n: numberOf.get(q.chunk_id) as number })),
  };
  let wrongLanguage = false;
  const ask = (retry: string | null) => {
    wrongLanguage = false;
    return askModel(state, config, {
      ...synthesisRequest({ ...input, retry }),
      check: (out) => {
        const problem = languageProblem(proseOf(out.answer).join("\n"), language, "report");
        wrongLanguage = problem !== null;
        return problem;
      },
    });
  };
  let asked = await ask(null);
  if (asked && !asked.ok && wrongLanguage) {
    emit(config, { kind: "step", message: `The report came back in the wrong language; asking once more` });
    asked = await ask(
      `Your previous report was not in ${LANGUAGE_NAMES[language]}: write all of it in ${LANGUAGE_NAMES[language]}.`,
    );
    if (asked && !asked.ok && wrongLanguage)
      asked = { ok: false, fallback: { ...asked.fallback, reason: `${asked.fallback.reason} (after one retry)` } };
  }
  if (!asked) return { draft: null, fallback: null };
  if (!asked.ok) return { draft: null, fallback: asked.fallback };
  const answer = checkCitations(
    asked.output.answer,
    sources.map((s) => s.n),
  ).text;
  return {
    draft: {
      answer,
      claims: asked.output.claims.map((c) => ({
        text: c.text,
        sources: [...new Set(c.sources)],
        quote: c.quote,
        verified: false,
        problems: [],
      })),
      sources,
      framing: proseOf(answer),
    },
    fallback: null,
  };
}

function draftOf(state: ResearchStateType): Draft {
  return synthesizeOffline({
    query: state.query,
    language: state.query_anchor?.detected_language ?? "en",
    tasks: state.todo_list?.items ?? [],
    tiers: [...state.primary_context, ...state.secondary_context, ...state.tertiary_context],
    summaries: state.task_summaries,
    clarification: state.hitl_context_summary,
  });
}

async function checked(state: ResearchStateType, config: LangGraphRunnableConfig) {
  // Runs synthesised before drafts were kept render the (deterministic) offline draft again.
  const draft = state.draft ?? draftOf(state);
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
    ...(state.engine_fallbacks.length > 0
      ? { engine_fallbacks: [...new Set(state.engine_fallbacks.map((f) => f.phase))] }
      : {}),
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
