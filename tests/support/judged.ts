import type { UIMessageChunk } from "ai";
import type { SourceItem } from "@/lib/chat";
import { postChat, textOf } from "../chat/support";
import judged from "../fixtures/judged-questions.json";

/**
 * Answer quality on the judged question set: every question goes through POST /api/chat (the
 * real workflow: analysis, retrieval on the seeded database, the engine, review gate), and its
 * citations are checked against the documents that answer it.
 */

export interface JudgedQuestion {
  /** The agent's slug. */
  agent: string;
  question: string;
  /** Slugs of the documents that answer it; empty when nothing in the corpus does. */
  answers: string[];
}

export const JUDGED_QUESTIONS: JudgedQuestion[] = judged.questions;

/** What an answer at or above this confidence promises: it is right at least CALIBRATION_GOAL of the time. */
export const CONFIDENT = 0.7;

export interface JudgedOutcome extends JudgedQuestion {
  text: string;
  /** The document slug of each cited passage, in citation order. */
  cited: string[];
  confidence: number;
  /** No citation at all: the engine said it found nothing. */
  refused: boolean;
  /** Answered, and every cited passage comes from an answering document. */
  right: boolean;
}

export interface JudgedFigures {
  questions: number;
  answerable: number;
  unanswerable: number;
  /** Answerable questions that got an answer with citations. */
  answered: number;
  /** Cited passages over answered answerable questions, and how many were from an answering document. */
  citedPassages: number;
  citedRight: number;
  precision: number;
  refused: number;
  refusalRate: number;
  /** Answers (to any question) at confidence ≥ CONFIDENT, and how many were right. */
  confident: number;
  confidentRight: number;
  calibration: number;
  /** Right answers among those below CONFIDENT: confidence should separate the two groups. */
  lowConfidence: number;
  lowConfidenceRight: number;
}

/** Asks one judged question as a new consultation. */
export async function askJudged(auth: Record<string, string>, q: JudgedQuestion): Promise<JudgedOutcome> {
  const res = await postChat(auth, { agentId: q.agent, message: q.question });
  if (res.status !== 200 || !res.done) throw new Error(`chat answered ${res.status} to "${q.question}"`);
  return outcomeOf(q, res.chunks);
}

export function outcomeOf(q: JudgedQuestion, chunks: UIMessageChunk[]): JudgedOutcome {
  const sources = chunks.find((c) => c.type === "data-sources") as { data: { items: SourceItem[] } } | undefined;
  const meta = chunks.find((c) => c.type === "message-metadata") as
    | { messageMetadata: { citations?: number[]; confidence?: number } }
    | undefined;
  const citations = meta?.messageMetadata.citations ?? [];
  const items = sources?.data.items ?? [];
  const cited = citations.map((n) => items.find((s) => s.n === n)?.externalId ?? `unknown source ${n}`);
  const refused = cited.length === 0;
  return {
    ...q,
    text: textOf(chunks).trim(),
    cited,
    confidence: meta?.messageMetadata.confidence ?? 0,
    refused,
    right: !refused && cited.every((slug) => q.answers.includes(slug)),
  };
}

export function measure(outcomes: JudgedOutcome[]): JudgedFigures {
  const answerable = outcomes.filter((o) => o.answers.length > 0);
  const unanswerable = outcomes.filter((o) => o.answers.length === 0);
  const answered = answerable.filter((o) => !o.refused);
  const citedPassages = answered.reduce((sum, o) => sum + o.cited.length, 0);
  const citedRight = answered.reduce((sum, o) => sum + o.cited.filter((slug) => o.answers.includes(slug)).length, 0);
  const refused = unanswerable.filter((o) => o.refused).length;
  const confident = outcomes.filter((o) => !o.refused && o.confidence >= CONFIDENT);
  const low = outcomes.filter((o) => !o.refused && o.confidence < CONFIDENT);
  const share = (part: number, whole: number) => (whole === 0 ? 0 : part / whole);
  return {
    questions: outcomes.length,
    answerable: answerable.length,
    unanswerable: unanswerable.length,
    answered: answered.length,
    citedPassages,
    citedRight,
    precision: share(citedRight, citedPassages),
    refused,
    refusalRate: share(refused, unanswerable.length),
    confident: confident.length,
    confidentRight: confident.filter((o) => o.right).length,
    calibration: share(confident.filter((o) => o.right).length, confident.length),
    lowConfidence: low.length,
    lowConfidenceRight: low.filter((o) => o.right).length,
  };
}

/** The figures as a Markdown table (the form docs/answer-quality.md shows them in). */
export function figuresTable(name: string, f: JudgedFigures): string {
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  return [
    `| ${name} | value | of |`,
    "| --- | --- | --- |",
    `| questions (answerable / unanswerable) | ${f.questions} | ${f.answerable} / ${f.unanswerable} |`,
    `| answerable questions answered | ${pct(f.answered / Math.max(1, f.answerable))} | ${f.answered} / ${f.answerable} |`,
    `| answer-source precision | ${pct(f.precision)} | ${f.citedRight} / ${f.citedPassages} cited passages |`,
    `| unanswerable refused | ${pct(f.refusalRate)} | ${f.refused} / ${f.unanswerable} |`,
    `| right at confidence ≥ ${CONFIDENT} | ${pct(f.calibration)} | ${f.confidentRight} / ${f.confident} answers |`,
    `| right below ${CONFIDENT} | ${pct(f.lowConfidenceRight / Math.max(1, f.lowConfidence))} | ${f.lowConfidenceRight} / ${f.lowConfidence} answers |`,
  ].join("\n");
}

/** One line per answer that was wrong, or a refusal of an answerable question: what to look at. */
export function misses(outcomes: JudgedOutcome[]): string[] {
  return outcomes
    .filter((o) => (o.answers.length === 0 ? !o.refused : !o.right))
    .map(
      (o) =>
        `${o.agent}: "${o.question}" → ${o.refused ? "refused" : `cited ${o.cited.join(", ")} at ${o.confidence}`} (answers: ${o.answers.join(", ") || "none"})`,
    );
}
