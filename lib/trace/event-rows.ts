import type { schema, TenantScope } from "@/lib/db";
import { classify } from "./classify";
import { AGENT_LEVELS, DATA_CLASSIFICATIONS, TRACE_EVENT_TYPES, type TraceEvent } from "./contract";

export type OutboxRow = typeof schema.executionTraceOutbox.$inferInsert;

const EVENT_TYPES: ReadonlySet<string> = new Set(TRACE_EVENT_TYPES);
const LEVELS: ReadonlySet<string> = new Set(AGENT_LEVELS);
const CLASSIFICATIONS: ReadonlySet<string> = new Set(DATA_CLASSIFICATIONS);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const INT4_MAX = 2_147_483_647;
/** The largest amount numeric(12, 6) holds. */
const COST_LIMIT = 999_999.999999;
/** Deeper than any real payload; stops a cyclic object with an error instead of a stack overflow. */
const MAX_DEPTH = 64;

/**
 * Postgres refuses NUL in text and jsonb, and a lone surrogate in jsonb: either would abort the
 * caller's transaction, and the change the event records with it. The test is cheap and almost
 * always false, so clean strings cost nothing.
 */
const SUSPECT = /[\0\uD800-\uDFFF]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function cleanText(value: string): string {
  if (!SUSPECT.test(value)) return value;
  return value.replaceAll("\0", "").replace(LONE_SURROGATE, "\uFFFD");
}

function optionalText(value: string | null | undefined): string | null {
  return value == null ? null : cleanText(String(value));
}

/** A JSON value as jsonb will store it: what JSON.stringify keeps, with every string cleaned. */
function jsonValue(value: unknown, depth: number): unknown {
  if (depth > MAX_DEPTH) throw new TypeError("trace event data nests too deep (or is circular)");
  if (value === null || typeof value === "boolean") return value;
  if (typeof value === "string") return cleanText(value);
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "bigint") throw new TypeError("trace event data cannot hold a bigint");
  if (typeof value !== "object") return undefined;
  const withJson = value as { toJSON?: () => unknown };
  if (typeof withJson.toJSON === "function") return jsonValue(withJson.toJSON(), depth + 1);
  if (Array.isArray(value)) return value.map((item) => jsonValue(item, depth + 1) ?? null);
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const clean = jsonValue(item, depth + 1);
    if (clean !== undefined) out[cleanText(key)] = clean;
  }
  return out;
}

function jsonObject(value: Record<string, unknown> | undefined, field: string): Record<string, unknown> {
  if (value == null) return {};
  if (typeof value !== "object" || Array.isArray(value)) throw new TypeError(`trace ${field} must be an object`);
  return jsonValue(value, 0) as Record<string, unknown>;
}

function integer(value: number | null | undefined, field: string): number | null {
  if (value == null) return null;
  const rounded = Math.round(value);
  if (!Number.isFinite(rounded) || Math.abs(rounded) > INT4_MAX) {
    throw new TypeError(`trace ${field} must be an integer, got ${value}`);
  }
  return rounded;
}

function member<T extends string>(value: T | null | undefined, allowed: ReadonlySet<string>, field: string): T | null {
  if (value == null) return null;
  if (!allowed.has(value)) throw new TypeError(`unknown trace ${field} "${value}"`);
  return value;
}

/**
 * Checks and cleans events into outbox rows before they reach the caller's transaction: a
 * refusal there would roll back the change being traced, so everything the database would
 * refuse is refused (or cleaned) here first.
 */
export function toOutboxRows(scope: TenantScope, events: readonly TraceEvent[]): OutboxRow[] {
  return events.map((event) => {
    const eventType = member(event.eventType, EVENT_TYPES, "event type");
    if (eventType === null) throw new TypeError("a trace event needs an event type");
    if (event.runId != null && !UUID.test(event.runId))
      throw new TypeError(`trace runId "${event.runId}" is not a uuid`);
    const costUsd = event.costUsd ?? null;
    if (costUsd !== null && !(Math.abs(costUsd) <= COST_LIMIT)) {
      throw new TypeError(`trace costUsd must be a finite amount up to ${COST_LIMIT}, got ${costUsd}`);
    }
    const occurredAt = event.occurredAt ?? new Date();
    if (Number.isNaN(occurredAt.getTime())) throw new TypeError("trace occurredAt is not a valid date");
    const classes = classify(event);
    return {
      tenantId: scope.tenantId,
      eventType,
      runId: event.runId ?? null,
      sessionId: optionalText(event.sessionId),
      requestId: optionalText(event.requestId),
      nodeName: optionalText(event.nodeName),
      eventData: jsonObject(event.eventData, "eventData"),
      eventDurationMs: integer(event.durationMs, "durationMs"),
      eventSuccess: event.success ?? true,
      eventError: optionalText(event.error),
      agentId: optionalText(event.agentId),
      agentLevel: member(event.agentLevel, LEVELS, "agent level"),
      userId: optionalText(event.userId),
      actorId: optionalText(event.actorId),
      tokensUsed: integer(event.tokensUsed, "tokensUsed"),
      costUsd,
      cacheHit: event.cacheHit ?? null,
      dataClassification: member(classes.dataClassification, CLASSIFICATIONS, "data classification"),
      phiAccessed: classes.phiAccessed ?? false,
      phiFields: classes.phiFields == null ? null : classes.phiFields.map((field) => cleanText(String(field))),
      metadata: jsonObject(event.metadata, "metadata"),
      eventTimestamp: occurredAt,
    };
  });
}
