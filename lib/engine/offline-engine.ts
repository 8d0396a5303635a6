import { acronymAliases } from "./acronyms";
import { streamAnswer } from "./answer-stream";
import { answerTypeTermsOf } from "./answer-type";
import { type Coverage, MIN_COVERAGE } from "./coverage";
import { type Extraction, extract, PARAGRAPH_WORDS } from "./extractive";
import { stemAs } from "./lexicon";
import { OFFLINE_MODEL } from "./provider-config";
import { analyzeQueryLexically, namedTermsOf, ownTermsOf, phrasingTermsOf, questionTermsOf } from "./query-analysis";
import type { AgentProfile, AnswerInput, Engine, Passage, QueryAnalysis } from "./types";

/**
 * The engine that needs no model: lexical query analysis and extractive answers, with its
 * reasoning written inside `<thinking>` like a model's, so the same filter and citation checks
 * run whether or not a provider is configured. Same input, same output, byte for byte.
 */

export interface OfflineEngineOptions {
  /** Words per streamed chunk. */
  chunkWords?: number;
  /** A pause between chunks, for demos; none by default. */
  chunkDelayMs?: number;
  /** A pause before the answer's first words and after each sentence, for demos (`VIGIL_OFFLINE_PACE_MS`); none by default. */
  sentenceDelayMs?: number;
}

const INTENT_NOTES: Partial<Record<QueryAnalysis["intent"], string>> = {
  greeting: "The message is a greeting, not a question: no sources needed.",
  thanks: "The message thanks me; it asks nothing.",
  farewell: "The message says goodbye; it asks nothing.",
  out_of_scope: "The question is outside this agent's domain.",
};

/** A refusal quotes the question up to this many characters. */
const QUOTED_CHARS = 160;

export function createOfflineEngine(options: OfflineEngineOptions = {}): Engine {
  const chunkWords = Math.max(1, Math.trunc(options.chunkWords ?? 3));
  const pace = {
    chunkDelayMs: Math.max(0, options.chunkDelayMs ?? 0),
    sentenceDelayMs: Math.max(0, options.sentenceDelayMs ?? 0),
  };
  return {
    name: "offline",
    model: OFFLINE_MODEL,
    generateObject: null,
    async analyzeQuery(question, analyzeOptions) {
      return analyzeQueryLexically(question, analyzeOptions);
    },
    answer(input) {
      const analysis = input.analysis ?? analyzeQueryLexically(input.question, { history: input.history });
      const raw = composeOfflineAnswer({ ...input, analysis });
      return streamAnswer(
        { deltas: chunked(raw, chunkWords, pace, input.signal) },
        {
          engine: "offline",
          model: OFFLINE_MODEL,
          passages: input.passages,
          analysis,
          retrieval: input.retrieval,
          signal: input.signal,
        },
      );
    },
  };
}

/** The whole raw answer, reasoning block first. Pure: the same input gives the same text. */
export function composeOfflineAnswer(input: AnswerInput & { analysis: QueryAnalysis }): string {
  const { analysis, agent, passages } = input;
  const smallTalk = smallTalkReply(analysis, agent);
  if (smallTalk) return `${thinking([INTENT_NOTES[analysis.intent] ?? "The message is not a question."])}${smallTalk}`;

  if (passages.length === 0) {
    return `${thinking([
      `Retrieval returned no passages for: ${analysis.searchQuery || input.question.trim()}.`,
      "I answer only from the knowledge base, so I say that it has nothing on this.",
    ])}${refusal(input.question)}`;
  }

  const names = namedTermsOf(input.question, analysis.language);
  const extraction = extract(passages, questionTermsOf(analysis), {
    own: ownTermsOf(analysis),
    names,
    phrasing: phrasingTermsOf(input.question, analysis.language),
    answerType: answerTypeTermsOf(input.question, analysis.language),
    aliases: acronymAliases(analysis.keywords, passages),
    language: analysis.language,
  });
  if (extraction.sentences.length === 0) {
    const nothing = refusal(input.question, missingNames(analysis, extraction.coverage, names));
    const { matched, unknown, share } = extraction.coverage;
    return `${thinking([
      extraction.answerable
        ? `Retrieval returned ${passages.length} passage(s), but none holds a sentence that can be quoted as an answer.`
        : `Retrieval returned ${passages.length} passage(s); the best document covers ${percent(share)} of the question (terms found: ${matched.join(", ") || "none"}; in no passage: ${unknown.join(", ") || "none"}). An answer needs ${percent(MIN_COVERAGE)}, so they do not address the question.`,
    ])}${nothing}`;
  }
  return `${thinking(reasoningLines(passages, analysis, extraction))}${answerText(extraction)}`;
}

function percent(share: number): string {
  return `${Math.round(share * 100)}%`;
}

function smallTalkReply(analysis: QueryAnalysis, agent: AgentProfile): string | null {
  switch (analysis.intent) {
    case "greeting":
      return `Hello! I'm ${agent.name}, here to help with ${agent.domain}. Ask me a question and I will answer from the knowledge base, citing each source.`;
    case "thanks":
      return `You're welcome. Ask me anything else about ${agent.domain}.`;
    case "farewell":
      return `Goodbye. Come back any time you have a question about ${agent.domain}.`;
    case "out_of_scope":
      return `That is outside what I cover (${agent.domain}), so I cannot answer it from my knowledge base.`;
    default:
      return null;
  }
}

/**
 * "I found nothing in the knowledge base about …" in a plain sentence: the names the passages
 * lack when there are some ("about Japan or PMDA"), else the question itself, quoted.
 */
function refusal(question: string, missing: string[] = []): string {
  if (missing.length > 0) return `I found nothing in the knowledge base about ${listed(missing)}.`;
  // Brackets and angle brackets would read as a citation or a tag in the answer.
  let quoted = question
    .replace(/[<>[\]“”]/g, "")
    .replace(/\s+/g, " ")
    .replace(/[\s.?!…:;,]+$/u, "")
    .trim();
  if (quoted.length > QUOTED_CHARS) quoted = `${quoted.slice(0, QUOTED_CHARS).replace(/\s+\S*$/u, "")}…`;
  return quoted
    ? `I found nothing in the knowledge base about “${quoted}”.`
    : "I found nothing in the knowledge base about this.";
}

/** The question's names (as written) that no retrieved passage mentions. */
function missingNames(analysis: QueryAnalysis, coverage: Coverage, names: Set<string>): string[] {
  const unknown = new Set(coverage.unknown.filter((t) => names.has(t)));
  return analysis.keywords.filter((k) => unknown.has(stemAs(k.toLowerCase(), analysis.language)));
}

function listed(items: string[]): string {
  const clean = items.map((i) => i.replace(/[<>[\]]/g, ""));
  return clean.length === 1 ? clean[0] : `${clean.slice(0, -1).join(", ")} or ${clean.at(-1)}`;
}

function reasoningLines(passages: Passage[], analysis: QueryAnalysis, extraction: Extraction): string[] {
  const byStem = new Map(analysis.keywords.map((k) => [stemAs(k.toLowerCase(), analysis.language), k]));
  const shown = (stems: string[]) => stems.map((s) => byStem.get(s) ?? s).join(", ");
  const lines = [
    "Offline engine: the answer quotes sentences from the retrieved passages, word for word, each with its source number.",
    `Question terms: ${analysis.keywords.join(", ") || "(none)"}${analysis.followUp ? " (including terms of the previous question)" : ""}.`,
    "Passages considered:",
  ];
  for (const report of extraction.passages) {
    const passage = passages.find((p) => p.n === report.n);
    if (!passage) continue;
    const where = [passage.section, passage.page != null ? `p. ${passage.page}` : null].filter(Boolean).join(", ");
    const head = `[${passage.n}] ${passage.title}${where ? ` — ${where}` : ""} (score ${Number(passage.score.toPrecision(3))})`;
    const verdict =
      report.used > 0
        ? `quoted ${report.used} sentence(s)${report.matched.length ? `; matches ${shown(report.matched)}` : ""}`
        : report.matched.length
          ? `matches ${shown(report.matched)}, but other sentences answered better; not used`
          : "no sentence mentions the question terms; not used";
    lines.push(`${head}: ${verdict}.`);
  }
  lines.push(
    `The answering document covers ${percent(extraction.coverage.share)} of the question.`,
    `Chose ${extraction.sentences.length} sentence(s), ranked by BM25 over the passages' sentences, without repeating one another.`,
  );
  if (extraction.duplicatesSkipped > 0)
    lines.push(`Skipped ${extraction.duplicatesSkipped} sentence(s) repeating one already chosen.`);
  return lines;
}

/** Sentences grouped into a paragraph per passage (split when long), each followed by `[n]`. */
function answerText(extraction: Extraction): string {
  const paragraphs: string[][] = [];
  let current: string[] = [];
  let words = 0;
  let lastN: number | null = null;
  for (const sentence of extraction.sentences) {
    if (current.length > 0 && (sentence.n !== lastN || words + sentence.words > PARAGRAPH_WORDS)) {
      paragraphs.push(current);
      current = [];
      words = 0;
    }
    current.push(`${sentence.text} [${sentence.n}]`);
    words += sentence.words;
    lastN = sentence.n;
  }
  if (current.length > 0) paragraphs.push(current);
  return paragraphs.map((p) => p.join(" ")).join("\n\n");
}

/** The reasoning block; its content never contains a tag of its own (titles are data). */
function thinking(lines: string[]): string {
  const body = lines.join("\n").replace(/<(?=\s*\/?\s*(?:think|answer))/gi, "‹");
  return `<thinking>\n${body}\n</thinking>\n\n`;
}

/**
 * Streams text a few words at a time, and gives the event loop a turn after each sentence (with
 * `sentenceDelayMs`, a pause, and one before the answer's first words): the run sends the first
 * sentence while later ones are written.
 */
async function* chunked(
  text: string,
  words: number,
  pace: { chunkDelayMs: number; sentenceDelayMs: number },
  signal?: AbortSignal,
): AsyncGenerator<string> {
  const pieces = text.match(/\s*\S+|\s+$/g) ?? [];
  // The reasoning block (hidden from readers) is not paced, only the answer's sentences: a
  // pause before its first words (as a writer takes one) and after each sentence.
  let answering = !text.startsWith("<thinking>");
  let begun = false;
  for (let i = 0; i < pieces.length; i += words) {
    if (signal?.aborted) return;
    if (answering && !begun) {
      begun = true;
      if (pace.sentenceDelayMs > 0) await sleep(pace.sentenceDelayMs);
      if (signal?.aborted) return;
    }
    if (pace.chunkDelayMs > 0) await sleep(pace.chunkDelayMs);
    const chunk = pieces.slice(i, i + words).join("");
    yield chunk;
    if (!answering && chunk.includes("</thinking>")) answering = true;
    else if (answering && pace.sentenceDelayMs > 0 && CITED_END.test(chunk)) await sleep(pace.sentenceDelayMs);
    else if (SENTENCE_END.test(chunk)) await nextTurn();
  }
}

/** A cited sentence ends with its source number; reasoning lines and paragraphs with a newline. */
const SENTENCE_END = /\]|\n/;
const CITED_END = /\]/;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
