// Every port the end-to-end suite listens on, derived from E2E_PORT (default 3210).
//
// Several people may run the suite on one machine, each with a port of their own: fixed ports
// for the specs' own servers collided with another person's suite server. Offsets in hundreds
// keep two bases a few apart (3231, 3232, …) from ever meeting.

export const BASE_PORT = Number(process.env.E2E_PORT ?? 3210);

/**
 * How many specs run at once (`E2E_WORKERS`, default 2). Each worker has a suite server of its
 * own, on a fresh database of its own: a spec never shares a server with one running beside it,
 * and most of a spec's time is spent waiting (for a stream, a run, a page), not computing.
 */
export const E2E_WORKERS = Math.max(1, Number(process.env.E2E_WORKERS ?? 2) || 1);

/** The suite server of worker lane `lane` (Playwright's parallelIndex, 0 … workers − 1). */
export function suiteServerPort(lane: number): number {
  return BASE_PORT + lane * 100;
}

/** A port for a spec's own server, past the suite servers' lanes. `slot` is 1, 2, 3 … per spec. */
export function specServerPort(slot: number): number {
  return BASE_PORT + (E2E_WORKERS + slot) * 100;
}
