// Process-wide state and background sweeps: the one place that touches globalThis.
import "server-only";

export { processSingleton } from "./singleton";
export { startSweep, stopSweep, stopSweeps, sweepInProgress, sweepNow, sweepStatuses } from "./sweep";
