import { z } from "zod";
import { requireRole, type Session } from "@/lib/auth";
import { errors } from "@/lib/errors";
import {
  ActorInput,
  HITL_LIMITS,
  HITL_OUTCOMES,
  HITL_STATES,
  type HitlActor,
  type HitlPage,
  Notes,
  QUEUE_PAGE_MAX,
  RequestId,
  type recordDecision,
  type supersedeDecision,
} from "@/lib/hitl";
import { json, parseBody } from "@/lib/http";
import { route } from "@/lib/server";

// What the /api/hitl routes share: the actor of a request, path and query parameters, and the
// list envelope. Request bodies and query strings are snake_case, as in the HITL design.

/** The principal acting on a case, from the session or API key (never from the body). */
export function actorOf(session: Session): HitlActor {
  return { tenantId: session.tenantId, userId: session.userId, role: session.role, name: session.name };
}

const CaseId = z.string().trim().min(1).max(200);

/** The case id of a /api/hitl/cases/{id} path. An id that names no case answers 404 later. */
export async function caseIdFrom(params: Promise<{ id: string }>): Promise<string> {
  const parsed = CaseId.safeParse((await params).id);
  if (!parsed.success) throw errors.invalidField("id", "Must be a case id (HITL-…).");
  return parsed.data;
}

const AdapterName = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,63}$/, "An adapter name is lower_snake_case, at most 64 characters.");

export async function adapterFrom(params: Promise<{ adapter: string }>): Promise<string> {
  const parsed = AdapterName.safeParse((await params).adapter);
  if (!parsed.success) throw errors.invalidField("adapter", parsed.error.issues[0].message);
  return parsed.data;
}

const Version = z
  .string()
  .regex(/^\d{1,9}$/)
  .transform(Number)
  .pipe(z.number().int().min(1));

/** The schema version of a /api/hitl/adapters/{adapter}/versions/{version} path. */
export async function versionFrom(params: Promise<{ version: string }>): Promise<number> {
  const parsed = Version.safeParse((await params).version);
  if (!parsed.success) throw errors.invalidField("version", "Must be a schema version number (1, 2, …).");
  return parsed.data;
}

/** `{status:"success", count, items, next_cursor}`: every list of the HITL API. */
export function listBody<T>(page: HitlPage<T>) {
  return { status: "success", count: page.items.length, items: page.items, next_cursor: page.nextCursor };
}

// ---- bodies ------------------------------------------------------------------------------

export const requestIdField = RequestId;
export const jsonObject = z.record(z.string(), z.unknown());

/** record_decision's (and supersede's) arguments, as the design names them. */
const DecisionBody = z.strictObject({
  request_id: requestIdField,
  decision: z.enum(HITL_OUTCOMES),
  notes: Notes.optional(),
  actor: ActorInput.optional(),
  modifications: jsonObject.optional(),
});
/** Modifications are at most a payload; the rest of the body gets some room on top. */
const DECISION_BODY_LIMIT = HITL_LIMITS.payloadBytes + 64 * 1024;

/** POST of a decision on /api/hitl/cases/{id}/…: the role it needs and the command that records it. */
export function decisionRoute(role: "member" | "admin", command: typeof recordDecision | typeof supersedeDecision) {
  return route<{ params: Promise<{ id: string }> }>(async (req, { params }) => {
    const session = await requireRole(req, role);
    const caseId = await caseIdFrom(params);
    const body = await parseBody(req, DecisionBody, DECISION_BODY_LIMIT);
    const result = await command(actorOf(session), caseId, {
      requestId: body.request_id,
      outcome: body.decision,
      modifications: body.modifications,
      notes: body.notes,
      actor: body.actor,
    });
    return json({ status: "success", ...result });
  });
}

// ---- query parameters --------------------------------------------------------------------

/** A comma-separated list of states, e.g. `pending,needs_clarification`. */
export const statesParam = z
  .string()
  .transform((s) =>
    s
      .split(",")
      .map((v) => v.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.enum(HITL_STATES)).min(1).max(HITL_STATES.length));

export const booleanParam = z.enum(["true", "false"]).transform((v) => v === "true");

export const limitParam = z
  .string()
  .regex(/^\d+$/, "Must be a whole number.")
  .transform(Number)
  .pipe(z.number().int().min(1).max(QUEUE_PAGE_MAX));

export const cursorParam = z.string().min(1).max(1000);

const DAY_MS = 86_400_000;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * A point in time: epoch milliseconds (`1735689600000`) or an ISO date (`2025-01-01`,
 * `2025-01-01T09:30:00Z`). A date without a time is midnight UTC; as the upper bound of a range
 * (`end`) it covers the whole day.
 */
export function timeParam(bound: "start" | "end") {
  return z.string().transform((raw, ctx) => {
    const value = raw.trim();
    if (/^\d{1,16}$/.test(value)) {
      const ms = Number(value);
      if (Number.isSafeInteger(ms)) return ms;
    } else if (ISO_DATE.test(value)) {
      const ms = Date.parse(DATE_ONLY.test(value) ? `${value}T00:00:00Z` : value);
      if (Number.isFinite(ms)) return DATE_ONLY.test(value) && bound === "end" ? ms + DAY_MS - 1 : ms;
    }
    ctx.addIssue({ code: "custom", message: "Must be epoch milliseconds or an ISO 8601 date." });
    return z.NEVER;
  });
}

/** Refuses a range whose start is after its end. */
export function assertRange(fromField: string, from: number | undefined, to: number | undefined): void {
  if (from !== undefined && to !== undefined && from > to) {
    throw errors.invalidField(fromField, rangeMessage(fromField));
  }
}

/** `decided_from` → "The decided-from date is after the decided-to date: pick a start on or before the end." */
export function rangeMessage(fromField: string): string {
  const words = (field: string) => field.replace(/_/g, "-");
  const toField = fromField.replace(/from$/, "to");
  return `The ${words(fromField)} date is after the ${words(toField)} date: pick a start on or before the end.`;
}
