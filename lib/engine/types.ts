// The engine interface that workflow nodes call. Nodes never see a model SDK: they hand the
// engine a question, an agent and numbered passages, and get back a stream and a result.

import type { ZodType } from "zod";
import type { EngineName } from "./provider-config";

/** One message of the conversation so far, oldest first. */
export interface ChatTurn {
  role: "user" | "assistant";
  content: string;
}

/**
 * A retrieved chunk as the answer sees it. `n` is its citation number: 1-based, in the order
 * the sources list shows, and the only number the answer may write as `[n]` for it.
 */
export interface Passage {
  n: number;
  chunkId: string;
  documentId: string;
  title: string;
  section: string | null;
  page: number | null;
  text: string;
  /** The retrieval score: Okapi BM25 when lexical, reciprocal-rank-fusion when hybrid. */
  score: number;
}

/** Which scale `Passage.score` is on (lib/rag reports it with each search). */
export type RetrievalKind = "lexical" | "hybrid";

/** What the user is doing with this message. Only `question` needs the knowledge base. */
export type QueryIntent = "question" | "greeting" | "thanks" | "farewell" | "out_of_scope";

export interface QueryAnalysis {
  intent: QueryIntent;
  /** The subject words of the question (as written, once each), history words added for a follow-up. */
  keywords: string[];
  /** What to hand retrieval: the keywords, or a model's standalone rewrite of the question. */
  searchQuery: string;
  /** ISO 639-1 code when it can be told. */
  language?: string;
  /** The question leaned on earlier turns ("what about children?") and their subject was added. */
  followUp: boolean;
  /**
   * The keywords a follow-up borrowed from the previous question (also in `keywords`). They help
   * find and rank passages; whether the answer covers the question is judged without them.
   */
  borrowed?: string[];
  /** `lexical` (the offline analysis) or `model` (an LLM classified and rewrote the question). */
  source: "lexical" | "model";
  /** The model call's usage, when a model was asked. */
  usage?: Usage;
  costUsd?: number | null;
}

export interface AnalyzeOptions {
  history?: ChatTurn[];
  /** Lets a model judge whether the question is within the agent's domain. */
  agent?: Pick<AgentProfile, "name" | "domain">;
  signal?: AbortSignal;
}

/**
 * A per-agent model choice: `"anthropic:claude-sonnet-4-5"`, a bare model id for the
 * deployment's provider (`"gpt-4.1"`, `"llama3.1:8b"`), `"offline"`, or the object form.
 * The agents table's `model` column holds the string form.
 */
export type ModelSetting = string | { provider?: EngineName; model?: string } | null | undefined;

export interface AgentProfile {
  name: string;
  domain: string;
  /** The agent's own instructions; the engine's rules on sources and citations still apply. */
  systemPrompt?: string | null;
  model?: ModelSetting;
  temperature?: number | null;
}

export interface AnswerInput {
  question: string;
  agent: AgentProfile;
  /** Numbered passages, best first; empty when retrieval found nothing. */
  passages: Passage[];
  history?: ChatTurn[];
  /** The analysis of this question, when the workflow already made one (else made here, lexically). */
  analysis?: QueryAnalysis;
  /** The scale of the passages' scores, for confidence. Default `lexical`. */
  retrieval?: RetrievalKind;
  signal?: AbortSignal;
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
}

export type FinishReason = "stop" | "length" | "content-filter" | "aborted" | "other";

export interface AnswerResult {
  /** The visible answer: no reasoning, no tags, citations only as `[n]` of given passages. */
  text: string;
  /** What was written inside `<thinking>`. */
  reasoning: string;
  /** The passage numbers cited in `text`, ascending, once each. */
  citations: number[];
  /** Numbers the model cited that name no passage; they were removed from `text`. */
  danglingCitations: number[];
  /** 0…1, from retrieval scores and citation coverage (see confidence.ts); 0 without passages. */
  confidence: number;
  /** Tokens in and out, when a model was called. */
  usage?: Usage;
  /** Estimated from a price table; null when the model's price is unknown (see prices.ts). */
  costUsd: number | null;
  model: string;
  engine: EngineName;
  finishReason: FinishReason;
}

export interface AnswerPart {
  type: "text" | "reasoning";
  delta: string;
}

/**
 * A streaming answer. Generation starts at once and runs to the end whether or not anyone
 * reads the streams, so `result` always settles; each stream can be read once.
 */
export interface AnswerStream {
  /**
   * The answer as written, reasoning inside `<thinking>…</thinking>`, with citations already
   * checked: what a workflow node forwards to its run's text output (whose ThinkingFilter
   * splits it into text and reasoning parts).
   */
  stream: AsyncIterable<string>;
  /** The same answer already split: visible text and reasoning in order, never a tag. */
  parts: AsyncIterable<AnswerPart>;
  /** Settles after the last part; rejects when generation failed. */
  result: Promise<AnswerResult>;
}

/**
 * A typed request to the model: what to do (`system`), the material (`prompt`) and the shape of
 * the answer (`schema`). The output is validated against the schema before it is returned.
 */
export interface ObjectRequest<T> {
  system: string;
  prompt: string;
  schema: ZodType<T>;
  /** Overrides the agent's temperature for this call (0 for classification, say). */
  temperature?: number;
  signal?: AbortSignal;
}

export interface ObjectResult<T> {
  output: T;
  usage?: Usage;
  /** Estimated from a price table; null when the model's price is unknown. */
  costUsd: number | null;
  model: string;
  engine: EngineName;
}

export interface Engine {
  readonly name: EngineName;
  /** The model id, or `extractive` for the offline engine. */
  readonly model: string;
  analyzeQuery(question: string, options?: AnalyzeOptions): Promise<QueryAnalysis>;
  answer(input: AnswerInput): AnswerStream;
  /**
   * Asks the model for a typed object; rejects when the call fails or the output does not match
   * the schema. Null on the offline engine, which has no model to ask: a workflow then runs its
   * own deterministic step instead.
   */
  readonly generateObject: (<T>(request: ObjectRequest<T>) => Promise<ObjectResult<T>>) | null;
}
