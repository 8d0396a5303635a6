import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import type { ChainedEvent } from "./types";

export const GENESIS_HASH = "0".repeat(64);

/**
 * hash = sha256(prev_hash || canonical_json(event)). Canonical JSON (RFC 8785) makes the hash
 * independent of key order and of how the database hands jsonb back.
 */
export function chainHash(prevHash: string, event: ChainedEvent): string {
  const canonical = canonicalize({
    tenantId: event.tenantId,
    seq: event.seq,
    eventType: event.eventType,
    runId: event.runId,
    node: event.node,
    actorId: event.actorId,
    durationMs: event.durationMs,
    payload: event.payload,
    occurredAt: event.occurredAt.getTime(),
  });
  return createHash("sha256")
    .update(prevHash + (canonical ?? ""))
    .digest("hex");
}
