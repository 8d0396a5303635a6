// The model seam: workflow nodes call these verbs and never a model SDK (DESIGN.md).
export { type AnswerContext, type RawAnswer, streamAnswer } from "./answer-stream";
export { CitationGuard, checkCitations, citedNumbers } from "./citations";
export { BM25_SCALE, type Confidence, type ConfidenceInput, confidenceOf, RRF_K } from "./confidence";
export { type CreateEngineOptions, createEngine, createEngineWithSelection } from "./create-engine";
export { contentTerms, guessLanguage, stem } from "./lexicon";
export { createLlmEngine, type LlmEngineOptions } from "./llm-engine";
export { composeOfflineAnswer, createOfflineEngine, type OfflineEngineOptions } from "./offline-engine";
export { estimateCost, PRICES, type Price, parsePrice, priceOf } from "./prices";
export {
  configuredEngine,
  DEFAULT_MODELS,
  type EngineName,
  type Env,
  engineConfigProblems,
  type ModelSelection,
  OFFLINE_MODEL,
  PROVIDERS,
  type ProviderName,
  parseModelSetting,
  providerAvailable,
  selectModel,
} from "./provider-config";
export { EngineConfigError, languageModelFor } from "./providers";
export { analyzeQueryLexically, keywordsOf, questionTermsOf } from "./query-analysis";
export { type Sentence, splitSentences } from "./sentences";
export { type FilterOutput, type FilterPart, filterThinking, ThinkingFilter } from "./thinking-filter";
export type {
  AgentProfile,
  AnalyzeOptions,
  AnswerInput,
  AnswerPart,
  AnswerResult,
  AnswerStream,
  ChatTurn,
  Engine,
  FinishReason,
  ModelSetting,
  Passage,
  QueryAnalysis,
  QueryIntent,
  RetrievalKind,
  Usage,
} from "./types";
export { visibleParts } from "./visible-parts";
