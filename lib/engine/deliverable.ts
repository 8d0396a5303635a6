import { confidenceOf } from "./confidence";
import { coverageOf } from "./coverage";
import { candidatesOf } from "./extractive";
import { goalDocumentsOf, titleFrequencies, titleWeight } from "./goal-documents";
import { subjectKeywordsOf } from "./goal-terms";
import { contentTerms, stem } from "./lexicon";
import type { Passage, RetrievalKind } from "./types";

/**
 * The offline engine's deliverable for a goal: each plan step is a sub-question, answered from
 * the passages that step found (or the specialist it asked), with sentences quoted word for word
 * and cited; then the decision with its options and evidence; then what the knowledge base could
 * not support. No model: the same run gives the same text.
 */

export interface DeliverableStep {
  id: string;
  /** The step as the plan names it; the section's heading. */
  title: string;
  /** What the step asked: its search query, or the task handed to an expert. */
  question: string;
  /** The run's source numbers this step found (or its expert cited). */
  found: number[];
  /** Who answered, for a delegated step. */
  expert?: string;
  /** Why the step produced nothing (failed, skipped, rejected), when it did. */
  failure?: string | null;
}

export interface DeliverableInput {
  goal: string;
  steps: DeliverableStep[];
  /** Every source of the run, numbered as the answer cites them. */
  passages: Passage[];
  decision?: { options: { id: string; label: string }[]; chosen: string; byReviewer: boolean } | null;
  calculations?: string[];
  retrieval?: RetrievalKind;
}

export interface DeliverableClaim {
  section: string;
  text: string;
  n: number;
}

export interface Deliverable {
  text: string;
  claims: DeliverableClaim[];
  /** The parts the knowledge base could not support, with why. */
  unsupported: { part: string; reason: string }[];
  citations: number[];
  confidence: number;
}

/**
 * A section quotes the document that answers its sub-question best (up to SENTENCES_FROM_BEST
 * sentences), provided it speaks to at least SECTION_MIN_COVERAGE of the sub-question's terms;
 * another document is quoted too (one sentence) only when it covers every term and
 * its best sentence is nearly as relevant (SECOND_DOCUMENT_CUTOFF of the best). A sentence that
 * merely shares a word or two with the sub-question is a wrong citation, not extra support.
 */
export const SECTION_MIN_COVERAGE = 0.5;
const SECOND_DOCUMENT_COVERAGE = 1;
const SECOND_DOCUMENT_CUTOFF = 0.9;
/** Sentences of the best document quoted beside its best one must score this share of it. */
const SENTENCE_CUTOFF = 0.3;
const SENTENCES_FROM_BEST = 3;
const OTHER_DOCUMENTS = 2;

const stemsOf = (words: string[]) => [...new Set(words.map((w) => stem(w.toLowerCase())))];
const normalise = (s: string) => s.toLowerCase().replace(/\s+/g, " ").trim();

interface SectionAnswer {
  claims: DeliverableClaim[];
  reason: string | null;
  /** Said in the section when it adds nothing new but is not unsupported either. */
  note?: string;
}

function answerSection(
  step: DeliverableStep,
  passages: Passage[],
  used: Set<string>,
  allowed: Set<string>,
): SectionAnswer {
  const found = passages.filter((p) => step.found.includes(p.n));
  if (found.length === 0) {
    return { claims: [], reason: step.failure ?? "the step found no passage in the knowledge base" };
  }
  // Only the goal's documents are quoted (goal-documents.ts): a neighbouring document the
  // step's narrower search also found is not what the goal is about.
  const own = found.filter((p) => allowed.has(p.documentId));
  if (own.length === 0) {
    const titles = [...new Set(found.map((p) => p.title))].slice(0, 3).join("; ");
    return { claims: [], reason: null, note: `what it found (${titles}) is about something other than the goal` };
  }
  const terms = stemsOf(subjectKeywordsOf(step.question));
  if (terms.length === 0)
    return { claims: [], reason: "the step asked nothing the knowledge base could be searched for" };
  const byDocument = new Map<string, Passage[]>();
  for (const p of own) byDocument.set(p.documentId, [...(byDocument.get(p.documentId) ?? []), p]);
  const candidates = candidatesOf(own, terms).filter((c) => c.score > 0 && !used.has(normalise(c.text)));
  const df = titleFrequencies(passages);
  const titleOf = new Map(own.map((p) => [p.documentId, new Set(contentTerms(p.title))]));
  // The document whose title names the sub-question comes first; then the best sentence.
  const ranked = [...byDocument.entries()]
    .map(([documentId, docPassages]) => ({
      documentId,
      named: titleWeight(terms, titleOf.get(documentId) ?? new Set(), df),
      coverage: coverageOf(terms, docPassages, own).share,
      sentences: candidates.filter((c) => c.documentId === documentId).sort((x, y) => y.score - x.score),
    }))
    .filter((d) => d.sentences.length > 0 && (d.named > 0 || d.coverage >= SECTION_MIN_COVERAGE))
    .sort((x, y) => y.named - x.named || y.sentences[0].score - x.sentences[0].score);
  const best = ranked[0];
  if (!best && candidatesOf(own, terms).some((c) => c.score > 0)) {
    return { claims: [], reason: null, note: "what it found is already quoted above" };
  }
  if (!best) {
    const most = Math.max(0, ...[...byDocument.values()].map((d) => coverageOf(terms, d, own).share));
    return {
      claims: [],
      reason: `the passages found cover at most ${Math.round(most * 100)}% of "${step.question.slice(0, 120)}"; quoting them would not answer it`,
    };
  }
  const top = best.sentences[0].score;
  // Another document is quoted when its title names a term of the sub-question the documents
  // already quoted do not ("randomisation and blinding"), or when it covers every term nearly
  // as well as the best one.
  const named = new Set([...(titleOf.get(best.documentId) ?? [])].filter((t) => terms.includes(t)));
  const others: typeof ranked = [];
  for (const d of ranked.slice(1)) {
    if (others.length >= OTHER_DOCUMENTS) break;
    const adds = [...(titleOf.get(d.documentId) ?? [])].filter((t) => terms.includes(t) && !named.has(t));
    const close = d.coverage >= SECOND_DOCUMENT_COVERAGE - 1e-9 && d.sentences[0].score >= SECOND_DOCUMENT_CUTOFF * top;
    if (adds.length === 0 && !close) continue;
    for (const t of adds) named.add(t);
    others.push(d);
  }
  const quoted = [
    ...best.sentences.filter((c) => c.score >= SENTENCE_CUTOFF * top).slice(0, SENTENCES_FROM_BEST),
    ...others.map((d) => d.sentences[0]),
  ];
  const claims: DeliverableClaim[] = [];
  for (const sentence of quoted) {
    used.add(normalise(sentence.text));
    claims.push({ section: step.title, text: sentence.text, n: sentence.n });
  }
  return { claims, reason: null };
}

/** The sentence that best supports an option, if any says anything about it. */
function evidenceFor(label: string, passages: Passage[]): { text: string; n: number } | null {
  const terms = stemsOf(subjectKeywordsOf(label));
  if (terms.length === 0) return null;
  const best = candidatesOf(passages, terms)
    .filter((c) => c.score > 0 && c.matched.length >= Math.ceil(terms.length / 2))
    .sort((a, b) => b.score - a.score)[0];
  return best ? { text: best.text, n: best.n } : null;
}

const cite = (c: { text: string; n: number }) => `${c.text} [${c.n}]`;

/**
 * The deliverable's opening section: each of the goal's documents (most relevant first) in its
 * sentence that best answers the goal as a whole, so every document the goal is about is heard
 * before the plan's narrower sub-questions are.
 */
function overviewOf(goal: string, documents: string[], passages: Passage[], used: Set<string>): DeliverableClaim[] {
  const terms = stemsOf(subjectKeywordsOf(goal));
  if (terms.length === 0) return [];
  const claims: DeliverableClaim[] = [];
  for (const documentId of documents.slice(0, OVERVIEW_DOCUMENTS)) {
    const own = passages.filter((p) => p.documentId === documentId);
    const best = candidatesOf(own, terms)
      .filter((c) => c.score > 0 && !used.has(normalise(c.text)))
      .sort((a, b) => b.score - a.score)[0];
    if (!best) continue;
    used.add(normalise(best.text));
    claims.push({ section: OVERVIEW, text: best.text, n: best.n });
  }
  return claims;
}

const OVERVIEW = "What the goal's main sources say";
const OVERVIEW_DOCUMENTS = 4;

export function composeDeliverable(input: DeliverableInput): Deliverable {
  const used = new Set<string>();
  const claims: DeliverableClaim[] = [];
  const unsupported: Deliverable["unsupported"] = [];
  const lines: string[] = [];
  const goalDocuments = goalDocumentsOf(input.goal, input.passages);
  const allowed = new Set(goalDocuments.documents);
  const overview = overviewOf(input.goal, goalDocuments.documents, input.passages, used);
  if (overview.length > 0) {
    lines.push(`### ${OVERVIEW}`, ...overview.map(cite));
    claims.push(...overview);
  }
  let number = 0;
  for (const step of input.steps) {
    number += 1;
    const answer = answerSection(step, input.passages, used, allowed);
    lines.push(`### ${number}. ${step.title}`);
    if (step.expert && answer.claims.length > 0) lines.push(`- Reported by ${step.expert}.`);
    if (answer.claims.length > 0) {
      // Sentences of one source stay together, as one paragraph per source.
      const paragraphs = new Map<number, string[]>();
      for (const c of answer.claims) paragraphs.set(c.n, [...(paragraphs.get(c.n) ?? []), cite(c)]);
      lines.push(...[...paragraphs.values()].map((p) => p.join(" ")));
      claims.push(...answer.claims);
    } else if (answer.note) {
      lines.push(`- ${answer.note[0].toUpperCase()}${answer.note.slice(1)}.`);
    } else {
      const reason = answer.reason ?? "no passage answered it";
      lines.push(`- Not supported by the knowledge base: ${reason}.`);
      unsupported.push({ part: step.title, reason });
    }
  }

  if (input.decision) {
    const { options, chosen, byReviewer } = input.decision;
    const chosenLabel = options.find((o) => o.id === chosen)?.label ?? chosen;
    lines.push(`### Decision: ${chosenLabel}`);
    lines.push(`- Chosen: ${chosenLabel} (${byReviewer ? "the reviewer's choice" : "the recommendation, approved"}).`);
    // An option's evidence comes from the documents the sections quote, when they speak to it.
    const quotedDocs = new Set(input.passages.filter((p) => claims.some((c) => c.n === p.n)).map((p) => p.documentId));
    const fromQuoted = input.passages.filter((p) => quotedDocs.has(p.documentId));
    const fromGoal = input.passages.filter((p) => allowed.has(p.documentId));
    for (const option of options) {
      const evidence = evidenceFor(option.label, fromQuoted) ?? evidenceFor(option.label, fromGoal);
      const mark = option.label === chosenLabel ? " (chosen)" : "";
      if (evidence && !used.has(normalise(evidence.text))) {
        used.add(normalise(evidence.text));
        lines.push(`- Option: ${option.label}${mark}.`, cite(evidence));
        claims.push({ section: "Decision", text: evidence.text, n: evidence.n });
      } else if (evidence) {
        lines.push(`- Option: ${option.label}${mark}: see [${evidence.n}] above.`);
      } else {
        lines.push(`- Option: ${option.label}${mark}: no passage speaks to it.`);
        unsupported.push({ part: `the option "${option.label}"`, reason: "no passage found speaks to it" });
      }
    }
  }

  if (input.calculations?.length) {
    lines.push("### Calculations", ...input.calculations.map((c) => `- ${c}`));
  }

  // What the goal asks about that no quoted source mentions is an open question, said as such.
  const cited = new Set(claims.map((c) => c.n));
  const citedPassages = input.passages.filter((p) => cited.has(p.n));
  const goalTerms = subjectKeywordsOf(input.goal);
  const coverage = coverageOf(stemsOf(goalTerms), citedPassages, input.passages);
  const byStem = new Map(goalTerms.map((k) => [stem(k.toLowerCase()), k]));
  const missing = [...coverage.unknown, ...coverage.elsewhere].map((s) => byStem.get(s) ?? s);
  const open = [
    ...unsupported.map((u) => `${u.part}: ${u.reason}.`),
    ...(missing.length ? [`No quoted source mentions: ${missing.join(", ")}; a specialist should fill this in.`] : []),
  ];
  lines.push("### Open questions");
  lines.push(
    ...(open.length
      ? open.map((o) => `- ${o}`)
      : ["- None beyond confirming that the quoted sources apply to this case."]),
  );

  let text = lines.join("\n\n");
  if (claims.length === 0) {
    text = `### The knowledge base could not support this goal\n\n${text}`;
  }
  const { confidence } = confidenceOf({
    passages: input.passages,
    answer: text,
    questionTerms: stemsOf(goalTerms),
    retrieval: input.retrieval,
  });
  return { text, claims, unsupported, citations: [...cited].sort((a, b) => a - b), confidence };
}
