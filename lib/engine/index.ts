export { configuredEngine, type EngineName } from "./provider-config";
export { type FilterOutput, filterThinking, ThinkingFilter } from "./thinking-filter";
