import "server-only";

// The trace's write path: every workflow records its events here (outbox → sequencer → hash
// chain), and verification reads the chain back. The admin's reports over it live in lib/audit.
export { type ChainedEvent, chainHash, GENESIS_HASH, HASH_VERSION, isRedacted, redactedField } from "./chain";
export { classify, classOfRank, classRank } from "./classify";
export type { DataTouched, TraceEvent } from "./contract";
export { toOutboxRows } from "./event-rows";
export { openNodeAttempts } from "./open-attempts";
export { recordTrace, traceIn } from "./outbox";
export { drainTrace, nudgeSequencer, sequenceTrace, startTraceSequencer, stopTraceSequencer } from "./sequencer";
export { replaceTraceSink } from "./sink";
export { chainHead, chainMark, withTraceJob } from "./trace-job";
export { integrityStatus, verifyAndRecord } from "./verification";
export { verifyChain } from "./verify";
