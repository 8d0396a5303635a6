import "server-only";

export { type ChainedEvent, chainHash, GENESIS_HASH, HASH_VERSION } from "./chain";
export type { TraceEvent } from "./contract";

export { toOutboxRows } from "./event-rows";
export { openNodeAttempts } from "./open-attempts";
export { recordTrace, traceIn } from "./outbox";
export { drainTrace, nudgeSequencer, sequenceTrace, startTraceSequencer, stopTraceSequencer } from "./sequencer";
export { replaceTraceSink } from "./sink";
export { verifyChain } from "./verify";
