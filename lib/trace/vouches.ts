import type { RemovedRange } from "./contract";

/** A removed range as a chained retention event (at `bySeq`) vouches for it. */
export interface Vouch extends RemovedRange {
  bySeq: number;
}

const HASH = /^[0-9a-f]{64}$/;

function isRange(value: unknown): value is RemovedRange {
  if (typeof value !== "object" || value === null) return false;
  const r = value as Record<string, unknown>;
  return (
    Number.isSafeInteger(r.from) &&
    Number.isSafeInteger(r.to) &&
    (r.from as number) <= (r.to as number) &&
    typeof r.lastHash === "string" &&
    HASH.test(r.lastHash)
  );
}

/**
 * The ranges retention events vouch for, by first position. Anything not shaped like a range
 * vouches for nothing (the gap it claims to explain is then reported).
 */
export function vouchesOf(events: readonly { seq: number; ranges: unknown }[]): Map<number, Vouch> {
  const vouches = new Map<number, Vouch>();
  for (const event of events) {
    if (!Array.isArray(event.ranges)) continue;
    for (const range of event.ranges) {
      if (!isRange(range) || vouches.has(range.from)) continue;
      vouches.set(range.from, { from: range.from, to: range.to, lastHash: range.lastHash, bySeq: Number(event.seq) });
    }
  }
  return vouches;
}
