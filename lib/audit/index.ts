export { GENESIS_HASH } from "./chain";
export { openNodeAttempts } from "./open-attempts";
export { recordTrace, traceIn } from "./outbox";
export { drainTrace, nudgeSequencer, sequenceTrace, startTraceSequencer, stopTraceSequencer } from "./sequencer";
export { replaceTraceSink, type TraceSink } from "./sink";
export type { AgentLevel, DataClassification, TraceEvent, TraceEventType, VerifyResult } from "./types";
export { AGENT_LEVELS, DATA_CLASSIFICATIONS, TRACE_EVENT_TYPES } from "./types";
export { verifyChain } from "./verify";
