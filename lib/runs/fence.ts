import { type SQL, sql } from "drizzle-orm";
import { someCause } from "@/lib/db";
import { LeaseLostError } from "./event-log";

/**
 * The SQLSTATE `vigil_fence_check` raises when a write comes from an execution that lost its run
 * (at the check, or at the save's COMMIT, where the server checks again).
 */
const FENCED_OUT = "VF409";

/**
 * The check a checkpoint save runs first in its own transaction: refused (and the save with it)
 * unless the run is still running under `token`, both now and at the commit (migration 0043).
 * It holds no lock a claim waits for: a save left open by a paused process does not delay the
 * takeover, and is refused when it commits.
 */
export function fenceGuard(runId: string, token: number): SQL {
  return sql`select vigil_fence_check(${runId}::uuid, ${token}::integer)`;
}

/** Whether `error` (or one it wraps) says this execution no longer holds its run. */
export function isFencedOut(error: unknown): boolean {
  return someCause(error, (e) => e instanceof LeaseLostError || e.code === FENCED_OUT);
}
