import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as decisionRoute from "@/app/api/hitl/cases/[id]/decision/route";
import * as resumeRoute from "@/app/api/runs/[id]/resume/route";
import * as runRoute from "@/app/api/runs/[id]/route";
import * as runsRoute from "@/app/api/runs/route";
import type { ResearchPublicState } from "@/lib/agents/contract";
import { rowsOf } from "@/lib/db";
import { ingestDocument } from "@/lib/rag";
import { executionSettled } from "@/lib/runs";
import { drainTrace } from "@/lib/trace";
import { hitlClient, MEMBER, REVIEWER, rid } from "../api-hitl/support";
import { appTargets } from "../support/databases";
import { scriptedModelForSuite } from "../support/scripted-model-suite";
import { seededDatabase } from "../support/seeded";
import { blocksOf, type ModelCall, sentenceOf } from "./scripted-model";

// Deep research with a model configured: the deployment points at an OpenAI-compatible endpoint
// whose answers are scripted from each request's prompt. The run, the engine, the AI SDK and the
// databases are the real ones.

interface Body {
  id: string;
  status: string;
  error: string | null;
  pendingInterrupts: { id: string; node: string; value: Record<string, unknown> }[];
  state: ResearchPublicState;
  waitingOn: { type: string; caseId: string; request: Record<string, unknown> } | null;
}

const MODEL_ID = "scripted-research";
const QUESTION =
  "How long does the FDA review of a 510(k) premarket notification take, and what is a predicate device?";
const GERMAN_QUESTION = "Welche Grenzwerte gelten nach der Strahlenschutzverordnung für beruflich exponierte Personen?";
/** A German document in the research analyst's domain, loaded for the German questions. */
const GERMAN_DOCUMENT = {
  title: "Strahlenschutzverordnung: Grenzwerte für beruflich exponierte Personen",
  content: `# Strahlenschutzverordnung: Grenzwerte für beruflich exponierte Personen

## § 78 Grenzwerte

Der Grenzwert der effektiven Dosis beträgt für beruflich exponierte Personen 20 Millisievert im Kalenderjahr. Für die Organ-Äquivalentdosis der Augenlinse gilt für beruflich exponierte Personen ein Grenzwert von 20 Millisievert im Kalenderjahr. Für die lokale Hautdosis gilt ein Grenzwert von 500 Millisievert im Kalenderjahr.

## § 79 Überwachung der Grenzwerte

Die Einhaltung der Grenzwerte wird durch eine behördlich bestimmte Messstelle überwacht. Die Messstelle meldet die Ergebnisse der zuständigen Behörde monatlich.
`,
};
const PARAPHRASE = "In short, ";
const INVENTED = "The agency clears every submission within 7777 days.";

const QUERIES = [QUESTION, "510(k) review clock FDA days decision", "predicate device substantial equivalence"];
const GAPS = ["third-party review", "user fee amounts", "eSTAR format"];
const QUESTIONS = [
  "Do you mean the traditional 510(k) only, or also special and abbreviated submissions?",
  "Should third-party review and its timelines be part of the research?",
];
const TASKS = [
  { task: "Find the FDA review timeline for a traditional 510(k) in days", context: "the review clock in FDA days" },
  { task: "Find how a predicate device is defined", context: "legally marketed predicate device" },
  { task: "Find what substantial equivalence to a predicate requires", context: "substantial equivalence" },
];
const GERMAN_TASKS = [
  { task: "Den Grenzwert der effektiven Dosis für beruflich exponierte Personen finden", context: "effektive Dosis" },
  { task: "Die Grenzwerte der Organdosen (Augenlinse, Haut) festhalten", context: "Augenlinse Hautdosis" },
  { task: "Prüfen, wie die Einhaltung der Grenzwerte überwacht wird", context: "Messstelle Überwachung" },
];

/** Per passage: one sentence copied from it (extracted and quoted), and the same sentence paraphrased. */
function extraction(call: ModelCall) {
  return {
    passages: blocksOf(call.prompt).map((b) => {
      const s = sentenceOf(b.text);
      return {
        n: b.n,
        extracted_info: s ?? "",
        quotes: s
          ? [
              { quote: s, relevance_reason: "scripted: verbatim" },
              {
                quote: `${PARAPHRASE}${s.charAt(0).toLowerCase()}${s.slice(1)}`,
                relevance_reason: "scripted: paraphrase",
              },
            ]
          : [],
      };
    }),
  };
}

const classification = (call: ModelCall) => ({
  passages: blocksOf(call.prompt).map((b) => ({ n: b.n, tier: 1, reason: "scripted" })),
});

/** The first source with a sentence to stand on. */
function firstSourced(call: ModelCall): { n: number; s: string } {
  for (const b of blocksOf(call.prompt)) {
    const s = sentenceOf(b.text);
    if (s) return { n: b.n, s };
  }
  throw new Error("no source with a sentence");
}

/** An English report: one claim in the source's words, one with a number the source does not have. */
function englishSynthesis(call: ModelCall) {
  const { n, s } = firstSourced(call);
  return {
    answer: `## Scripted synthesis\n\nThe documents of the knowledge base answer the question as follows. ${s} [${n}]\n\n${INVENTED.slice(0, -1)} [${n}], as another source claims [99].`,
    claims: [
      { text: s, sources: [n], quote: s },
      { text: INVENTED, sources: [n], quote: null },
    ],
  };
}

function germanSynthesis(call: ModelCall) {
  const { n, s } = firstSourced(call);
  return {
    answer: `## Ergebnis der Recherche\n\nDie Dokumente der Wissensbasis beantworten die Frage, und die wichtigste Stelle ist diese: „${s}“ [${n}]\n\nWeitere Angaben dazu finden sich in der zitierten Quelle, die der Bericht nennt [${n}].`,
    claims: [{ text: s, sources: [n], quote: s }],
  };
}

type Phases = Record<string, (call: ModelCall, calls: ModelCall[]) => unknown>;
const DEFAULT: Phases = {
  query_generation: () => ({ queries: QUERIES }),
  gap_analysis: () => ({
    concepts: ["review time", "predicate device"],
    entities: ["FDA", "510(k)"],
    gaps: GAPS,
    coverage: "The review clock is covered; fees and third-party review are not.",
  }),
  questions: () => ({ questions: QUESTIONS }),
  plan: () => ({ tasks: TASKS }),
  extraction,
  classification,
  synthesis: englishSynthesis,
};

const scripted = scriptedModelForSuite(MODEL_ID, { VIGIL_MODEL_PRICE: "1,2" });

const useScript = (overrides: Phases = {}) => {
  const phases = { ...DEFAULT, ...overrides };
  scripted.model.calls.length = 0;
  scripted.model.script = (call, calls) => {
    const answer = phases[call.phase];
    if (!answer) throw new Error(`no script for ${call.phase}`);
    return answer(call, calls);
  };
};

for (const target of appTargets()) {
  describe(`deep research with a scripted model on ${target.name}`, () => {
    const suite = seededDatabase(target);
    const api = hitlClient();
    beforeAll(async () => {
      await ingestDocument(
        { tenantId: suite.tenants.demo },
        { title: GERMAN_DOCUMENT.title, format: "markdown", content: GERMAN_DOCUMENT.content, domains: ["regulatory"] },
        { createdBy: "seed", embeddings: null },
      );
    });

    const start = async (input: Record<string, unknown>) => {
      const res = await api.post(MEMBER, runsRoute.POST, "/api/runs", {
        workflow: "deep-research",
        input: { agentId: "research-analyst", ...input },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      return res.body.runId as string;
    };
    const stopped = async (id: string): Promise<Body> => {
      for (let i = 0; i < 800; i++) {
        await executionSettled(id);
        const body = (await api.get(MEMBER, runRoute.GET, `/api/runs/${id}`, { id })).body.run as Body;
        if (body.status !== "running") return body;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error("run did not stop");
    };
    const answer = (id: string, value: unknown) =>
      api.post(MEMBER, resumeRoute.POST, `/api/runs/${id}/resume`, { value }, { id });
    const approve = async (body: Body) => {
      expect(body.waitingOn?.type, body.error ?? "").toBe("plan_approval");
      const res = await api.post(
        REVIEWER,
        decisionRoute.POST,
        `/api/hitl/cases/${body.waitingOn?.caseId}/decision`,
        { request_id: rid("decide"), decision: "approved" },
        { id: body.waitingOn?.caseId as string },
      );
      expect(res.status).toBe(200);
      return stopped(body.id);
    };
    const planOf = (body: Body) =>
      ((body.waitingOn?.request.plan_steps ?? []) as { description: string }[]).map((s) => s.description);
    const storedTexts = async (ids: string[]) => {
      if (ids.length === 0) return new Map<string, string>();
      const rows = rowsOf<{ id: string; text: string }>(
        await suite.database.db.execute(sql`select id::text, text from knowledge_chunks where id::text in ${ids}`),
      );
      return new Map(rows.map((r) => [r.id, r.text]));
    };
    const llmCalls = async (id: string) => {
      await drainTrace();
      return rowsOf<{ event_data: Record<string, unknown> }>(
        await suite.database.db.execute(
          sql`select event_data from execution_trace where run_id = ${id} and event_type = 'llm_call' order by seq`,
        ),
      ).map((r) => r.event_data);
    };

    it("the model writes the queries, gaps, questions, plan and report; its claims are checked against the chunks and a paraphrased quote is dropped", async () => {
      useScript();
      const id = await start({ query: QUESTION, maxIterations: 1 });
      let body = await stopped(id);
      expect(body.status, body.error ?? "").toBe("interrupted");
      expect(body.state.engine).toBe(MODEL_ID);
      expect(body.state.iteration_queries[0]).toEqual(QUERIES);
      // The questions are the model's; its gaps are added to the measured ones, coverage stays measured.
      expect(body.pendingInterrupts[0].value.questions).toEqual(QUESTIONS);
      const iteration = body.state.retrieval_history[0];
      expect(iteration.queries).toEqual(QUERIES);
      expect(body.state.knowledge_gaps).toEqual(expect.arrayContaining(GAPS));
      expect(iteration.judgement?.added_gaps).toEqual(GAPS);
      expect(iteration.judgement?.coverage).toMatch(/fees and third-party review are not/);
      expect(body.state.coverage_score).toBe(iteration.coverage_score);
      // The gap analysis was shown the passages actually retrieved.
      const gapCall = scripted.model.calls.find((c) => c.phase === "gap_analysis");
      expect(gapCall?.prompt).toContain(iteration.passages[0].excerpt.slice(0, 80));

      expect((await answer(id, { response: "Traditional submissions only" })).status).toBe(202);
      body = await stopped(id);
      expect(body.state.hitl_termination_reason).toBe("max_iterations");
      expect(planOf(body)).toEqual(TASKS.map((t) => t.task));
      body = await approve(body);
      expect(body.status, body.error ?? "").toBe("completed");
      expect(body.state.task_summaries.map((t) => t.task)).toEqual(TASKS.map((t) => t.task));
      expect(body.state.engine_fallbacks).toEqual([]);

      // Quotes: the verbatim ones are kept, each paraphrase is dropped and counted.
      const quotes = body.state.preserved_quotes;
      expect(quotes.length).toBeGreaterThan(0);
      expect(quotes.every((q) => q.relevance_reason === "scripted: verbatim")).toBe(true);
      expect(body.state.quotes_dropped).toBe(quotes.length);
      const quoted = await storedTexts([...new Set(quotes.map((q) => q.chunk_id))]);
      for (const q of quotes) expect(quoted.get(q.chunk_id)).toContain(q.quote);

      // The report is the model's text, its dangling citation removed, and each claim checked.
      const report = body.state.final_report;
      if (!report) throw new Error("no report");
      expect(report.engine).toBe(MODEL_ID);
      expect(report.answer).toContain("## Scripted synthesis");
      expect(report.answer).not.toContain("[99]");
      const [sourced, invented] = report.claims;
      const texts = await storedTexts(report.sources.map((s) => s.chunk_id));
      expect(texts.get(report.sources[sourced.sources[0] - 1].chunk_id)).toContain(sourced.text);
      expect(sourced.verified, sourced.problems.join("; ")).toBe(true);
      expect(invented.text).toBe(INVENTED);
      expect(invented.verified).toBe(false);
      expect(invented.problems).toContain("the number 7777 is not in the cited passage");
      expect(report.quality.dimensions.groundedness.score).toBe(50);

      // Every model call is in the audit trail with its purpose, tokens and cost.
      const calls = await llmCalls(id);
      const purposes = new Set(calls.map((c) => c.purpose));
      for (const phase of Object.keys(DEFAULT)) expect(purposes.has(`research_${phase}`), phase).toBe(true);
      expect(calls.length).toBe(scripted.model.calls.length);
      for (const c of calls) {
        expect(c).toMatchObject({ engine: "openai-compatible", model: MODEL_ID, outcome: "ok" });
        expect(c.tokensIn as number).toBeGreaterThan(0);
        expect(c.costUsd as number).toBeGreaterThan(0);
      }
    });

    it("invalid model output falls back to that phase's offline step, and the run says so", async () => {
      useScript({
        plan: () => ({ tasks: [{ task: "x", context: "" }] }),
        classification: () => "Sure! Here are the tiers: primary, primary, secondary.",
      });
      const id = await start({ query: QUESTION, skipClarification: true });
      let body = await stopped(id);
      // The offline plan stands in: its tasks are built from the question.
      const plan = planOf(body);
      expect(plan[0]).toBe(`Find the passages that answer the question directly: ${QUESTION}`);
      expect(plan).not.toContain(TASKS[0].task);
      body = await approve(body);
      expect(body.status, body.error ?? "").toBe("completed");
      const fallbacks = body.state.engine_fallbacks;
      expect(fallbacks.filter((f) => f.phase === "plan")).toHaveLength(1);
      const classified = fallbacks.filter((f) => f.phase === "classification");
      // One fallback per task whose passages were to be classified, each naming its task.
      const taskIds = body.state.todo_list?.items.map((t) => t.id) ?? [];
      expect(classified.length).toBeGreaterThan(0);
      expect(classified.every((f) => taskIds.includes(f.task_id as number))).toBe(true);
      expect(new Set(classified.map((f) => f.task_id)).size).toBe(classified.length);
      expect(classified.length).toBe(scripted.model.calls.filter((c) => c.phase === "classification").length);
      expect(fallbacks.every((f) => f.reason.length > 0)).toBe(true);
      // The phases that worked are still the model's.
      const report = body.state.final_report;
      expect(report?.engine).toBe(MODEL_ID);
      expect(report?.engine_fallbacks).toEqual(["plan", "classification"]);
      expect(report?.answer).toContain("## Scripted synthesis");
      const calls = await llmCalls(id);
      expect(calls.find((c) => c.purpose === "research_plan")).toMatchObject({ outcome: "failed" });
      expect(calls.filter((c) => c.purpose === "research_extraction").every((c) => c.outcome === "ok")).toBe(true);
    });

    it("a German question gets a German report: an English one is caught, asked again once, and replaced by the offline synthesis", async () => {
      useScript({ plan: () => ({ tasks: GERMAN_TASKS }) });
      const id = await start({ query: GERMAN_QUESTION, skipClarification: true });
      let body = await stopped(id);
      expect(body.state.detected_language).toBe("de");
      body = await approve(body);
      expect(body.status, body.error ?? "").toBe("completed");
      const syntheses = scripted.model.calls.filter((c) => c.phase === "synthesis");
      expect(syntheses).toHaveLength(2);
      expect(syntheses[0].system).toContain("in German");
      expect(syntheses[1].system).toContain("write all of it in German");
      const fallback = body.state.engine_fallbacks.find((f) => f.phase === "synthesis");
      expect(fallback?.reason).toBe("the report is in English, the question in German (after one retry)");
      const report = body.state.final_report;
      if (!report) throw new Error("no report");
      expect(report.language).toBe("de");
      expect(report.engine).toBe(MODEL_ID);
      expect(report.answer).not.toContain("Scripted synthesis");
      expect(report.answer.startsWith(`# Recherchebericht: ${GERMAN_QUESTION}`)).toBe(true);
      expect(report.answer).toContain("## Antwort");
      expect(report.quality.dimensions.language.score).toBe(100);
    });

    it("a German question whose retry comes back in German keeps the model's report", async () => {
      useScript({
        plan: () => ({ tasks: GERMAN_TASKS }),
        synthesis: (call, calls) =>
          calls.filter((c) => c.phase === "synthesis").length === 1 ? englishSynthesis(call) : germanSynthesis(call),
      });
      const id = await start({ query: GERMAN_QUESTION, skipClarification: true });
      const body = await approve(await stopped(id));
      expect(body.status, body.error ?? "").toBe("completed");
      expect(body.state.engine_fallbacks.filter((f) => f.phase === "synthesis")).toEqual([]);
      const report = body.state.final_report;
      if (!report) throw new Error("no report");
      expect(report.answer).toContain("## Ergebnis der Recherche");
      expect(report.claims).toHaveLength(1);
      expect(report.claims[0].verified, report.claims[0].problems.join("; ")).toBe(true);
      const calls = await llmCalls(id);
      expect(calls.filter((c) => c.purpose === "research_synthesis").map((c) => c.outcome)).toEqual(["invalid", "ok"]);
    });
  });
}
