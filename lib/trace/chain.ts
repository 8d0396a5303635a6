import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import type { schema } from "@/lib/db";

export const GENESIS_HASH = "0".repeat(64);

/** The hash form new rows are chained with (3: payload fields by digest, so they can be redacted). */
export const HASH_VERSION = 3;

export type TraceRow = typeof schema.executionTrace.$inferSelect;

/** Everything a row's hash covers: the row without its id and its two hashes. */
export type ChainedEvent = Omit<TraceRow, "id" | "prevHash" | "hash">;

function sha256(prevHash: string, canonical: string | undefined): string {
  return createHash("sha256")
    .update(prevHash + (canonical ?? ""))
    .digest("hex");
}

/**
 * hash = sha256(prev_hash || canonical_json(event)), version 2: every column of the row. The
 * keys are listed rather than spread so that a column added later changes no existing hash (it
 * needs a new version). Canonical JSON (RFC 8785) makes the hash independent of key order and of
 * how the database hands jsonb back.
 */
export function chainHashV2(prevHash: string, event: ChainedEvent): string {
  return sha256(prevHash, canonicalize(canonicalV2(event)));
}

function canonicalV2(event: ChainedEvent): Record<string, unknown> {
  return {
    hashVersion: event.hashVersion,
    traceId: event.traceId,
    tenantId: event.tenantId,
    seq: event.seq,
    eventType: event.eventType,
    runId: event.runId,
    sessionId: event.sessionId,
    requestId: event.requestId,
    nodeName: event.nodeName,
    eventData: event.eventData,
    eventDurationMs: event.eventDurationMs,
    eventSuccess: event.eventSuccess,
    eventError: event.eventError,
    agentId: event.agentId,
    agentLevel: event.agentLevel,
    userId: event.userId,
    actorId: event.actorId,
    tokensUsed: event.tokensUsed,
    costUsd: event.costUsd,
    cacheHit: event.cacheHit,
    dataClassification: event.dataClassification,
    phiAccessed: event.phiAccessed,
    phiFields: event.phiFields,
    metadata: event.metadata,
    eventTimestamp: event.eventTimestamp.getTime(),
  };
}

/** The digest a payload field is hashed by, and the value a redacted field keeps. */
export function fieldDigest(value: unknown): string {
  return createHash("sha256")
    .update(canonicalize(value) ?? "")
    .digest("hex");
}

/** A redacted payload field: `{"redacted": "<sha-256 of the value it replaced>"}`. */
export function redactedField(value: unknown): { redacted: string } {
  return { redacted: isRedacted(value) ? value.redacted : fieldDigest(value) };
}

export function isRedacted(value: unknown): value is { redacted: string } {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  const digest = (value as { redacted?: unknown }).redacted;
  return keys.length === 1 && typeof digest === "string" && /^[0-9a-f]{64}$/.test(digest);
}

/**
 * Version 3: version 2 with each top-level `event_data` field replaced by its digest, so an
 * erasure can swap a field's value for `{"redacted": digest}` and the row still verifies, while
 * every other column, the field names and every kept value are still checked.
 */
export function chainHash(prevHash: string, event: ChainedEvent): string {
  const digests = Object.fromEntries(
    Object.entries(event.eventData).map(([key, value]) => [
      key,
      isRedacted(value) ? value.redacted : fieldDigest(value),
    ]),
  );
  return sha256(prevHash, canonicalize({ ...canonicalV2(event), eventData: digests }));
}

/** The columns a version 1 hash covers. */
export type V1Fields = Pick<
  ChainedEvent,
  | "tenantId"
  | "seq"
  | "eventType"
  | "runId"
  | "nodeName"
  | "actorId"
  | "eventDurationMs"
  | "eventData"
  | "eventTimestamp"
>;

/**
 * Version 1, for rows chained before migration 0016: exactly the form they were hashed with,
 * under the names the columns had then.
 */
export function chainHashV1(prevHash: string, event: V1Fields): string {
  return sha256(
    prevHash,
    canonicalize({
      tenantId: event.tenantId,
      seq: event.seq,
      eventType: event.eventType,
      runId: event.runId,
      node: event.nodeName,
      actorId: event.actorId,
      durationMs: event.eventDurationMs,
      payload: event.eventData,
      occurredAt: event.eventTimestamp.getTime(),
    }),
  );
}

/** The hash a stored row should carry, in the form its version names (null: no such form). */
export function expectedHash(prevHash: string, row: ChainedEvent): string | null {
  if (row.hashVersion === HASH_VERSION) return chainHash(prevHash, row);
  if (row.hashVersion === 2) return chainHashV2(prevHash, row);
  if (row.hashVersion === 1) return chainHashV1(prevHash, row);
  return null;
}
