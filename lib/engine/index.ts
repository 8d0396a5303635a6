// The model seam: workflow nodes call these verbs and never a model SDK (DESIGN.md).
import "server-only";

export { acronymAliases, spelledOut } from "./acronyms";
export { CitationGuard, checkCitations, citedNumbers } from "./citations";
export { BM25_SCALE, confidenceOf, RRF_K } from "./confidence";
export { createEngine, createEngineWithSelection } from "./create-engine";
export { composeDeliverable, type DeliverableStep } from "./deliverable";
export { facetsOf, subjectKeywordsOf } from "./goal-terms";
export { compoundRelated, contentTerms, stem, stemAs } from "./lexicon";
export { createLlmEngine } from "./llm-engine";
export { composeOfflineAnswer, createOfflineEngine } from "./offline-engine";
export { estimateCost, parsePrice, priceOf } from "./prices";
export { configuredEngine, engineConfigProblems, parseModelSetting, selectModel } from "./provider-config";
export { EngineConfigError, languageModelFor } from "./providers";
export {
  analyzeQueryLexically,
  keywordsOf,
  namedTermsOf,
  ownTermsOf,
  phrasingTermsOf,
  questionTermsOf,
} from "./query-analysis";
export { splitSentences } from "./sentences";
export { filterThinking, ThinkingFilter } from "./thinking-filter";
export type {
  AgentProfile,
  AnswerPart,
  AnswerResult,
  AnswerStream,
  ChatTurn,
  Engine,
  FinishReason,
  ObjectRequest,
  Passage,
  QueryAnalysis,
  Usage,
} from "./types";
export { visibleParts } from "./visible-parts";
