export { GENESIS_HASH } from "./chain";
export type { TraceEvent, TraceEventType, VerifyResult } from "./types";
export { TRACE_EVENT_TYPES } from "./types";
export { verifyChain } from "./verify";
export { flushTrace, recordTrace, TraceWriter, traceWriter } from "./writer";
