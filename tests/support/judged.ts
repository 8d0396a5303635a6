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
  /** The tenant whose agent is asked: the demo tenant when absent. */
  tenant?: "demo" | "acme";
  /** The agent's slug. */
  agent: string;
  question: string;
  /** Slugs of the documents that answer it; empty when nothing in the corpus does. */
  answers: string[];
  /** A follow-up: this question is asked first in the same chat, and its answer is not judged. */
  after?: string;
  /** A multi-part question: how many things it asks. */
  parts?: number;
}

export const JUDGED_QUESTIONS = judged.questions as JudgedQuestion[];

/** What an answer at or above this confidence promises: it is right at least CALIBRATION_GOAL of the time. */
export const CONFIDENT = 0.7;

export interface JudgedOutcome extends JudgedQuestion {
  text: string;
  /** The document slug of each cited passage, in citation order. */
  cited: string[];
  /** The document slug behind each citation marker in the text: one per cited sentence, in reading order. */
  citedSentences: string[];
  confidence: number;
  /** No citation at all: the engine said it found nothing. */
  refused: boolean;
  /** Answered, and every cited passage comes from an answering document. */
  right: boolean;
  /** Answered, and the first citation in the text points at an answering document. */
  firstRight: boolean;
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
  /** Answerable questions whose first citation comes from an answering document (a refusal has none). */
  firstRight: number;
  firstRightRate: number;
  /** Cited sentences in answers to answerable questions, and how many cite an answering document. */
  citedSentences: number;
  citedSentencesRight: number;
  sentencePrecision: number;
  /** Answerable questions refused, and their share of the answerable. */
  refusedAnswerable: number;
  refusedAnswerableRate: number;
}

/**
 * Asks one judged question as a new consultation; a follow-up goes second in a chat whose
 * first question is `after`.
 */
export async function askJudged(auth: Record<string, string>, q: JudgedQuestion): Promise<JudgedOutcome> {
  let sessionId: string | undefined;
  if (q.after) {
    const first = await postChat(auth, { agentId: q.agent, message: q.after });
    if (first.status !== 200 || !first.done) throw new Error(`chat answered ${first.status} to "${q.after}"`);
    sessionId = first.headers.get("x-vigil-session-id") ?? undefined;
    if (!sessionId) throw new Error(`no session for "${q.after}"`);
  }
  const res = await postChat(auth, { agentId: q.agent, message: q.question, ...(sessionId ? { sessionId } : {}) });
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
  const text = textOf(chunks).trim();
  const slugOf = (n: number) => items.find((s) => s.n === n)?.externalId ?? `unknown source ${n}`;
  const citedSentences = [...text.matchAll(/\[(\d+)\]/g)].map((m) => slugOf(Number(m[1])));
  return {
    ...q,
    text,
    cited,
    citedSentences,
    firstRight: !refused && citedSentences.length > 0 && q.answers.includes(citedSentences[0]),
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
  const sentences = answered.flatMap((o) => o.citedSentences.map((slug) => ({ right: o.answers.includes(slug) })));
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
    firstRight: answerable.filter((o) => o.firstRight).length,
    firstRightRate: share(answerable.filter((o) => o.firstRight).length, answerable.length),
    citedSentences: sentences.length,
    citedSentencesRight: sentences.filter((s) => s.right).length,
    sentencePrecision: share(sentences.filter((s) => s.right).length, sentences.length),
    refusedAnswerable: answerable.length - answered.length,
    refusedAnswerableRate: share(answerable.length - answered.length, answerable.length),
  };
}

/** The figures as a Markdown table (the form docs/answer-quality.md shows them in). */
export function figuresTable(name: string, f: JudgedFigures): string {
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  return [
    `| ${name} | value | of |`,
    "| --- | --- | --- |",
    `| questions (answerable / unanswerable) | ${f.questions} | ${f.answerable} / ${f.unanswerable} |`,
    `| first citation right (answerable) | ${pct(f.firstRightRate)} | ${f.firstRight} / ${f.answerable} |`,
    `| cited sentences from an answering document | ${pct(f.sentencePrecision)} | ${f.citedSentencesRight} / ${f.citedSentences} |`,
    `| answerable refused | ${pct(f.refusedAnswerableRate)} | ${f.refusedAnswerable} / ${f.answerable} |`,
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
        `${o.agent}: ${o.after ? `(after "${o.after}") ` : ""}"${o.question}" → ${o.refused ? "refused" : `cited ${o.cited.join(", ")} at ${o.confidence}`} (answers: ${o.answers.join(", ") || "none"})`,
    );
}
