import { createHash, randomUUID } from "node:crypto";
import canonicalize from "canonicalize";
import { and, eq, sql } from "drizzle-orm";
import { roleAtLeast } from "@/lib/access";
import { isUniqueViolation, schema, type Tx, withTenant } from "@/lib/db";
import { errors, NotFoundError } from "@/lib/errors";
import { adapterForSubmitIn, clip, schemaVersionIn, summarize } from "./adapters";
import { announceCaseChange } from "./case-bus";
import { announceCaseDecided } from "./case-decided";
import type {
  HitlCommandResult,
  HitlConfidence,
  HitlEscalationDetails,
  HitlEventView,
  HitlOutcome,
  HitlPriority,
  HitlProjection,
  HitlRef,
  HitlStateName,
} from "./contract";
import { ActorInput, HITL_OUTCOMES, SERVER_REF_TYPES, SubmitCase } from "./contract";
import { type DecisionAuthority, decisionGuard } from "./decision-guard";
import { hitlErrors } from "./errors";
import { HITL_LIMITS, isPlainObject, requireJsonObject, requireRequestId, requireText } from "./limits";
import { applyEvent, toProjection } from "./projection";
import { dueAtFor } from "./sla";
import { EVENT_OF_ACTION, type HitlAction, TRANSITIONS } from "./transitions";
import type { HitlActor } from "./types";
import { assertModifications, assertPayload } from "./validation";
import { assertMayAnswer, canSeeCase, privateOwnerIn } from "./visibility";

// Every command is one transaction that appends an event and updates the projection with the
// same fold the rebuild uses. The case's projection row is locked first, so concurrent commands
// on one case run one after the other: the first terminal decision wins, the rest see it.

const cases = schema.hitlCases;
const events = schema.hitlEvents;
const state = schema.hitlState;
const refsTable = schema.hitlCaseRefs;
type EventRow = typeof events.$inferSelect;
type CaseRow = typeof cases.$inferSelect;

export const newCaseId = () => `HITL-${randomUUID()}`;
export const newEventId = () => `HEV-${randomUUID()}`;

const sha256 = (value: unknown) =>
  createHash("sha256")
    .update(canonicalize(value) ?? "")
    .digest("hex");

/** What a request asks for: a replay of its request_id must ask for the same thing. */
const intentHash = (intent: Record<string, unknown>) => sha256(intent);

/** SHA-256 of a payload's RFC 8785 canonical JSON: the same payload hashes the same on any client. */
export const payloadHash = (payload: Record<string, unknown>) => sha256(payload);

/**
 * The event as recorded, RFC 8785 canonical JSON: its columns (nulls left out), the envelope a
 * submission opened, and the display fields exactly as the caller gave them.
 */
function eventJsonOf(event: Omit<EventRow, "eventJson">, extra: Record<string, unknown>): string {
  const record: Record<string, unknown> = {
    event_id: event.id,
    case_id: event.caseId,
    seq: event.seq,
    event_type: event.type,
    request_id: event.requestId,
    from_state: event.fromState,
    to_state: event.toState,
    decision_outcome: event.outcome,
    modifications: event.modifications,
    notes: event.notes,
    question: event.question,
    answer: event.answer,
    escalation: event.details,
    supersedes_event_id: event.supersedesEventId,
    actor: {
      kind: event.actorKind,
      id: event.actorId,
      name: event.actorName,
      role: event.actorRole,
      team: event.actorTeam,
      principal_role: event.principalRole,
    },
    created_at_ms: event.createdAt,
    ...extra,
  };
  return canonicalize(withoutNulls(record)) ?? "{}";
}

/** An object without its null and undefined members, at every depth (arrays are kept as they are). */
function withoutNulls(value: unknown): unknown {
  if (!value || typeof value !== "object" || Array.isArray(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== null && v !== undefined)
      .map(([k, v]) => [k, withoutNulls(v)]),
  );
}

function withEventJson(event: Omit<EventRow, "eventJson">, extra: Record<string, unknown> = {}): EventRow {
  return { ...event, eventJson: eventJsonOf(event, extra) };
}

export function toEventView(row: EventRow): HitlEventView {
  return {
    id: row.id,
    caseId: row.caseId,
    seq: row.seq,
    type: row.type,
    requestId: row.requestId,
    fromState: row.fromState ?? null,
    toState: row.toState,
    actor: {
      kind: row.actorKind,
      id: row.actorId,
      name: row.actorName,
      role: row.actorRole,
      team: row.actorTeam ?? null,
    },
    question: row.question ?? null,
    answer: row.answer ?? null,
    outcome: row.outcome ?? null,
    modifications: row.modifications ?? null,
    notes: row.notes,
    supersedesEventId: row.supersedesEventId ?? null,
    eventJson: row.eventJson,
    escalation: row.details ?? null,
    authorization: authorizationOf(row),
    createdAt: row.createdAt,
  };
}

/** What allowed a decision, as its event_json records it (null on other events and older ones). */
function authorizationOf(row: EventRow): HitlEventView["authorization"] {
  if (!row.outcome || !row.eventJson.includes('"authorization"')) return null;
  const recorded = (JSON.parse(row.eventJson) as { authorization?: Record<string, unknown> }).authorization;
  if (!recorded) return null;
  return {
    allowedBy: String(recorded.allowed_by),
    policyKey: typeof recorded.policy_key === "string" ? recorded.policy_key : null,
    rule: String(recorded.rule),
  };
}

function resultOf(row: EventRow, replayed: boolean): HitlCommandResult {
  return { caseId: row.caseId, state: row.toState, event: toEventView(row), replayed };
}

/**
 * The event's actor columns: the principal (id, and the role that authorised it) from the
 * session or API key; the display fields (name, role, team, kind) from the caller, or from the
 * principal when it gave none. Only Vigil itself acts as `system`.
 */
function actorFields(actor: HitlActor, display: ActorInput = principalDisplay(actor)) {
  if (!actor.userId) throw errors.unauthenticated();
  return {
    actorKind: actor.role === "system" ? ("system" as const) : (display.kind ?? ("operator" as const)),
    actorId: actor.userId,
    actorName: display.name,
    actorRole: display.role,
    actorTeam: display.team ?? null,
    principalRole: actor.role,
  };
}

/** The principal's own display fields, for a caller that gave none. */
function principalDisplay(actor: HitlActor): ActorInput {
  if (!actor.userId) throw errors.unauthenticated();
  return { name: (actor.name?.trim() || actor.userId).slice(0, HITL_LIMITS.actorNameChars), role: actor.role };
}

/** A caller's display fields, checked as REST and MCP check them (server code calls the core directly). */
function parsedDisplay(given: ActorInput | undefined): ActorInput | undefined {
  if (given === undefined) return undefined;
  const parsed = ActorInput.safeParse(given);
  if (!parsed.success) {
    throw errors.validation(parsed.error.issues.map((issue) => ({ ...issue, path: ["actor", ...issue.path] })));
  }
  return parsed.data;
}

/** The caller's display object as given, for event_json (null when it gave none). */
const displayAsGiven = (display?: ActorInput) => (display ? { actor_as_given: display } : {});

/**
 * Reviewers, admins and the system ask and escalate; only admins supersede; the asker answers
 * (visibility.ts). Who decides (approve, reject) is the decision guard's to say, with the case
 * locked: it depends on the case (a run's checkpoint follows the tenant's separation-of-duties policy).
 */
const MIN_ROLE: Record<HitlAction, "reviewer" | "admin" | null> = {
  request_clarification: "reviewer",
  provide_clarification: null,
  approve: null,
  reject: null,
  escalate: "reviewer",
  supersede: "admin",
};

const isDecision = (action: HitlAction) => action === "approve" || action === "reject";

function assertMayAct(actor: HitlActor, action: HitlAction): void {
  const min = MIN_ROLE[action];
  if (!min) return;
  if (actor.role === "system") {
    if (min === "admin") throw hitlErrors.forbidden(action);
    return;
  }
  if (!roleAtLeast(actor.role, min)) throw hitlErrors.forbidden(action);
}

/** A caller's refs, refusing the types only the server writes (run, interrupt, chat_session, …). */
function callerRefs(refs: HitlRef[]): HitlRef[] {
  const i = refs.findIndex((ref) => (SERVER_REF_TYPES as readonly string[]).includes(ref.ref_type));
  if (i >= 0) {
    throw errors.invalidField(
      `refs.${i}.ref_type`,
      `${refs[i].ref_type} refs are written by the server (a run that stops for a decision, a consultation under review); a client cannot set them.`,
    );
  }
  return refs;
}

/** submit_case for callers inside the server (camelCase); checked with the wire schema. */
export interface SubmitCaseInput {
  adapter: string;
  /** `review` when absent (the wire schema requires it; server code may leave it out). */
  caseType?: string;
  /** The summary's first line when absent (the wire schema requires it). */
  title?: string;
  payload: unknown;
  requestId: string;
  refs?: HitlRef[];
  priority?: HitlPriority;
  confidence?: HitlConfidence;
  /** The reviewer's summary; the adapter's formatter writes one when absent. */
  summary?: string;
  /** Display fields of the submitter; the principal's own when absent. */
  submitter?: ActorInput;
}

export interface SubmitOptions {
  /**
   * `run` / `interrupt` / `chat_session` refs: only server code that opens a case for a paused run
   * passes them. The case carries the visibility of the owner they name (visibility.ts).
   */
  serverRefs?: HitlRef[];
}

/** Opens a case (state `pending`) after validating its payload against the adapter's active schema. */
export async function submitCase(
  actor: HitlActor,
  input: SubmitCaseInput,
  options: SubmitOptions = {},
): Promise<HitlCommandResult> {
  // The adapter's formatter writes the summary a caller did not; a title defaults to it.
  const summary = input.summary ?? summarize(input.adapter, isPlainObject(input.payload) ? input.payload : {});
  // The wire schema REST and MCP parse, applied again here for callers inside the server.
  const parsed = SubmitCase.safeParse({
    request_id: input.requestId,
    adapter_id: input.adapter,
    case_type: input.caseType ?? "review",
    title: input.title ?? clip(summary, HITL_LIMITS.titleChars),
    payload: input.payload,
    summary,
    submitter: input.submitter ?? principalDisplay(actor),
    refs: input.refs ?? undefined,
    priority: input.priority ?? undefined,
    confidence: input.confidence ?? undefined,
  });
  if (!parsed.success) throw errors.validation(parsed.error.issues);
  const { request_id: requestId, adapter_id: adapter, case_type: caseType, title } = parsed.data;
  const who = actorFields(actor, parsed.data.submitter);
  const payload = requireJsonObject("payload", parsed.data.payload);
  const refs = [...callerRefs(parsed.data.refs ?? []), ...(options.serverRefs ?? [])];
  const priority = parsed.data.priority ?? "normal";
  const confidence = parsed.data.confidence ?? null;
  const hash = intentHash({
    action: "submit",
    actor: who.actorId,
    adapter,
    caseType,
    title,
    payload,
    refs,
    priority,
    confidence,
    summary: parsed.data.summary,
  });

  return withTenant(actor, async (tx) => {
    const found = await adapterForSubmitIn(tx, actor.tenantId, adapter);
    if (!found) {
      const replay = await submitReplayIn(tx, actor, requestId, hash);
      if (replay) return replay;
      throw hitlErrors.adapterNotFound(adapter);
    }
    try {
      assertPayload(adapter, found.version, found.jsonSchema, payload);
    } catch (error) {
      // A replay of a submission accepted under an earlier schema version still replays.
      const replay = await submitReplayIn(tx, actor, requestId, hash);
      if (replay) return replay;
      throw error;
    }

    const now = Date.now();
    const privateTo = options.serverRefs?.length ? await privateOwnerIn(tx, options.serverRefs) : null;
    const kase: CaseRow = {
      id: newCaseId(),
      tenantId: actor.tenantId,
      adapter,
      schemaVersion: found.version,
      caseType,
      title,
      summary: parsed.data.summary ?? summary,
      payload,
      payloadHash: payloadHash(payload),
      submitterName: who.actorName,
      submitterRole: who.actorRole,
      createdBy: who.actorId,
      privateTo,
      submitterTeam: who.actorTeam,
      requestId,
      priority,
      confidence,
      dueAt: found.policy ? dueAtFor(now, found.policy) : null,
      createdAt: now,
      updatedAt: now,
    };
    const inserted = await tx
      .insert(cases)
      .values(kase)
      .onConflictDoNothing({ target: [cases.tenantId, cases.requestId] })
      .returning({ id: cases.id });
    if (inserted.length === 0) {
      // This request_id was used before (or by a concurrent submit that committed first).
      const replay = await submitReplayIn(tx, actor, requestId, hash);
      if (replay) return replay;
      throw new Error("a case with this request_id exists but has no submission event");
    }
    const event = withEventJson(
      {
        id: newEventId(),
        tenantId: actor.tenantId,
        caseId: kase.id,
        seq: 1,
        type: "submitted",
        requestId,
        intentHash: hash,
        fromState: null,
        toState: "pending",
        ...who,
        question: null,
        answer: null,
        outcome: null,
        modifications: null,
        notes: "",
        details: null,
        supersedesEventId: null,
        createdAt: now,
      },
      {
        case: {
          adapter_id: adapter,
          schema_version: found.version,
          case_type: caseType,
          title,
          priority,
          confidence,
          payload_hash_sha256: kase.payloadHash,
          refs,
        },
        ...(input.submitter ? { submitter_as_given: input.submitter } : {}),
      },
    );
    // Sent together (pipelined on a server connection), in order: refs and the event need the case.
    await Promise.all([
      refs.length > 0
        ? tx
            .insert(refsTable)
            .values(
              refs.map((r) => ({
                tenantId: actor.tenantId,
                caseId: kase.id,
                kind: r.ref_type,
                key: r.ref_key,
                refId: r.ref_value,
                createdAt: now,
              })),
            )
            .onConflictDoNothing()
        : undefined,
      tx.insert(events).values(event),
      tx.insert(state).values(applyEvent(null, event, kase)),
    ]);
    return resultOf(event, false);
  });
}

async function submitReplayIn(
  tx: Tx,
  actor: HitlActor,
  requestId: string,
  hash: string,
): Promise<HitlCommandResult | null> {
  const [existing] = await tx
    .select({ id: cases.id, privateTo: cases.privateTo })
    .from(cases)
    .where(eq(cases.requestId, requestId));
  if (!existing) return null;
  const [first] = await tx
    .select()
    .from(events)
    .where(and(eq(events.caseId, existing.id), eq(events.type, "submitted")));
  if (!first || first.intentHash !== hash) {
    // Not the id of a case the caller may not see (a run's checkpoint request ids are predictable).
    throw hitlErrors.idempotencyConflict(requestId, canSeeCase(actor, existing) ? existing.id : null);
  }
  return resultOf(first, true);
}

export interface Mutation {
  action: HitlAction;
  /** Fields of the event besides the envelope. */
  fields: Partial<Pick<EventRow, "question" | "answer" | "outcome" | "modifications" | "notes">>;
  /** Display fields of who acts (the principal's own when absent). */
  display?: ActorInput;
  /** An escalation's record, computed from the case as it is when the lock is held. */
  details?: (current: HitlProjection, now: number) => HitlEscalationDetails;
  /** Also report the run (and interrupt) the case belongs to, so a decision can resume it. */
  withRunLink?: boolean;
  /** What allowed a decision (set under the lock by the decision guard). */
  authority?: DecisionAuthority;
}

type StateRow = typeof state.$inferSelect;

/** What a mutation needs besides the locked projection row, read in the same statement. */
interface LockedCase {
  row: StateRow;
  /** The event this request_id already wrote on the case, if any (a replay). */
  prior: EventRow | null;
  runRef: string | null;
  interruptRef: string | null;
}

// Spelled out: drizzle leaves columns unqualified in a single-table select, and an unqualified
// case_id inside this subquery would name the ref's own column.
const refOfKind = (kind: (typeof SERVER_REF_TYPES)[number]) =>
  sql<string | null>`(select r.ref_value from hitl_case_refs r
    where r.case_id = hitl_state.case_id and r.ref_type = ${kind}
    order by r.created_at_ms, r.ref_value limit 1)`;

async function mutateCase(
  actor: HitlActor,
  caseId: string,
  rawRequestId: unknown,
  given: Mutation,
): Promise<HitlCommandResult> {
  const requestId = requireRequestId(rawRequestId);
  assertMayAct(actor, given.action);
  // Checked before any lock is taken.
  const mutation = { ...given, display: parsedDisplay(given.display) };
  const attempt = () => withTenant(actor, (tx) => lockedMutation(tx, actor, caseId, requestId, mutation));
  let result: HitlCommandResult;
  try {
    result = await attempt();
  } catch (error) {
    // A retry of this request committed while we waited for the lock and the action was still
    // allowed: our event collided with its event. A second attempt sees it and replays it.
    if (!isDuplicateRequest(error)) throw error;
    result = await attempt();
  }
  if (!result.replayed) announceCaseChange(caseId);
  return result;
}

function isDuplicateRequest(error: unknown): boolean {
  return isUniqueViolation(error, "idx_hitl_events_request_id");
}

async function lockedMutation(
  tx: Tx,
  actor: HitlActor,
  caseId: string,
  requestId: string,
  mutation: Mutation,
): Promise<HitlCommandResult> {
  const found = await lockCaseIn(tx, caseId, requestId, { withRunLink: mutation.withRunLink });
  if (!found) throw new NotFoundError("HITL case", { case_id: caseId });
  if (!isDecision(mutation.action)) return mutateLockedCase(tx, actor, found, requestId, mutation);
  // One rule for every door (the inbox, MCP, a run's resume, a chat card): refused here, nothing is written.
  const authority = await decisionGuard()(tx, actor, { caseId, runRef: found.runRef });
  return mutateLockedCase(tx, actor, found, requestId, { ...mutation, authority });
}

/**
 * Locks a case's projection row and, in the same statement, reads a prior event of
 * `requestId` (and, for decisions, the run the case belongs to). Null if there is no such case,
 * or with `skipLocked` if someone holds it. Under READ COMMITTED the joined event is read as it
 * was before any wait for the lock: a concurrent retry of the same request that committed
 * meanwhile is found by `priorEventIn` when the command would be refused, and by a second
 * attempt when its insert hits the request's unique index (see mutateCase).
 */
export async function lockCaseIn(
  tx: Tx,
  caseId: string,
  requestId: string,
  options: { skipLocked?: boolean; withRunLink?: boolean } = {},
): Promise<LockedCase | null> {
  const [found] = await tx
    .select({
      row: state,
      prior: events,
      runRef: options.withRunLink ? refOfKind("run") : sql<null>`null`,
      interruptRef: options.withRunLink ? refOfKind("interrupt") : sql<null>`null`,
    })
    .from(state)
    .leftJoin(events, and(eq(events.caseId, state.caseId), eq(events.requestId, requestId)))
    .where(eq(state.caseId, caseId))
    .for("update", options.skipLocked ? { of: state, skipLocked: true } : { of: state });
  return found ?? null;
}

/** A fresh read (a new statement sees what committed while this transaction waited for the lock). */
async function priorEventIn(tx: Tx, caseId: string, requestId: string): Promise<EventRow | null> {
  const [row] = await tx
    .select()
    .from(events)
    .where(and(eq(events.caseId, caseId), eq(events.requestId, requestId)));
  return row ?? null;
}

/**
 * Appends one event to a case whose projection row the caller has locked, and folds it into
 * the projection. Replays, refusals and the decision check happen here, so every path that
 * changes a case (commands, the escalation sweep) follows the same rules.
 */
export async function mutateLockedCase(
  tx: Tx,
  actor: HitlActor,
  locked: LockedCase,
  requestId: string,
  mutation: Mutation,
): Promise<HitlCommandResult> {
  const { row, prior } = locked;
  const caseId = row.caseId;
  const who = actorFields(actor, mutation.display);
  // What the request asks for; the outcome is part of the action (approve/reject).
  const hash = intentHash({ action: mutation.action, actor: who.actorId, caseId, ...mutation.fields });
  if (prior) {
    if (prior.intentHash !== hash) throw hitlErrors.idempotencyConflict(requestId, caseId);
    return withRunLink(locked, mutation, resultOf(prior, true));
  }

  const current = toProjection(row);
  let to = TRANSITIONS[current.state][mutation.action];
  // Asking the open question again is not a revision: no event without a change.
  if (mutation.action === "request_clarification" && mutation.fields.question === current.openQuestion) to = "invalid";
  if (to === "already_terminal" || to === "invalid") {
    // Refused, unless a retry of this very request moved the case while we waited.
    const retried = await priorEventIn(tx, caseId, requestId);
    if (retried) return mutateLockedCase(tx, actor, { ...locked, prior: retried }, requestId, mutation);
    if (to === "already_terminal") throw await alreadyTerminal(tx, current.state, current.decisionEventId, caseId);
    throw hitlErrors.invalidTransition(current.state, mutation.action);
  }

  if (mutation.fields.modifications) {
    const [kase] = await tx.select().from(cases).where(eq(cases.id, caseId));
    assertModifications(kase.adapter, kase.schemaVersion, mutation.fields.modifications);
    const registered = await schemaVersionIn(tx, kase.adapter, kase.schemaVersion);
    if (registered) {
      assertPayload(kase.adapter, kase.schemaVersion, registered.jsonSchema, {
        ...kase.payload,
        ...mutation.fields.modifications,
      });
    }
  }

  const now = Date.now();
  const supersedes = mutation.action === "supersede" ? current.decisionEventId : null;
  const event = withEventJson(
    {
      id: newEventId(),
      tenantId: row.tenantId,
      caseId,
      seq: current.lastSeq + 1,
      type: EVENT_OF_ACTION[mutation.action],
      requestId,
      intentHash: hash,
      fromState: current.state,
      // A supersede moves the case to the new decision's state.
      toState: mutation.action === "supersede" ? (mutation.fields.outcome as HitlStateName) : to,
      ...who,
      question: mutation.fields.question ?? null,
      answer: mutation.fields.answer ?? null,
      outcome: mutation.fields.outcome ?? null,
      modifications: mutation.fields.modifications ?? null,
      notes: mutation.fields.notes ?? "",
      details: mutation.details ? mutation.details(current, now) : null,
      supersedesEventId: supersedes,
      createdAt: now,
    },
    {
      ...displayAsGiven(mutation.display),
      ...(mutation.authority
        ? {
            authorization: {
              allowed_by: mutation.authority.allowedBy,
              policy_key: mutation.authority.policyKey,
              rule: mutation.authority.rule,
            },
          }
        : {}),
    },
  );
  const next = applyEvent(current, event, {
    id: caseId,
    tenantId: row.tenantId,
    adapter: row.adapter,
    createdAt: row.createdAt,
    priority: row.priority,
    dueAt: row.dueAt,
  });
  // Both statements are sent together (pipelined on a server connection); the event's unique
  // indexes still guard the log if anything got past the row lock.
  await Promise.all([tx.insert(events).values(event), tx.update(state).set(next).where(eq(state.caseId, caseId))]);
  return withRunLink(locked, mutation, resultOf(event, false));
}

function withRunLink(locked: LockedCase, mutation: Mutation, result: HitlCommandResult): HitlCommandResult {
  if (!mutation.withRunLink || !locked.runRef) return result;
  return { ...result, linkedRun: { runId: locked.runRef, interruptId: locked.interruptRef } };
}

async function alreadyTerminal(tx: Tx, current: HitlStateName, decisionEventId: string | null, caseId: string) {
  const [decision] = decisionEventId ? await tx.select().from(events).where(eq(events.id, decisionEventId)) : [];
  return hitlErrors.alreadyTerminal({
    case_id: caseId,
    state: current,
    decision: decision
      ? {
          event_id: decision.id,
          event_type: decision.type,
          decision_outcome: decision.outcome,
          actor_kind: decision.actorKind,
          actor_id: decision.actorId,
          actor_name: decision.actorName,
          actor_role: decision.actorRole,
          actor_team: decision.actorTeam,
          modifications: decision.modifications ?? null,
          notes: decision.notes,
          created_at_ms: decision.createdAt,
        }
      : null,
  });
}

/** Notes of an event: optional, at most HITL_LIMITS.notesChars. */
function notesOf(notes: unknown): string {
  if (notes === undefined || notes === null) return "";
  if (typeof notes !== "string") throw errors.invalidField("notes", "notes must be a string.");
  if (notes.length > HITL_LIMITS.notesChars) {
    throw errors.invalidField("notes", `notes is longer than ${HITL_LIMITS.notesChars} characters.`);
  }
  return notes;
}

/**
 * Flags an open case for someone with more authority (`target`: a role or a user id). The
 * SLA sweep escalates due cases with it; a reviewer may escalate by hand. The state stays.
 */
export async function escalateCase(
  actor: HitlActor,
  caseId: string,
  input: { requestId: string; target: string; notes?: string },
): Promise<HitlCommandResult> {
  const target = requireText("target", input.target, 200);
  return mutateCase(actor, caseId, input.requestId, {
    action: "escalate",
    fields: { notes: notesOf(input.notes) },
    details: (current) => ({
      level: current.escalationLevel + 1,
      target,
      dueAt: current.dueAt,
      nextNotifyAt: current.nextEscalationAt,
    }),
  });
}

interface EventInput {
  requestId: string;
  notes?: string | null;
  /** Display fields of who acts; the principal's own when absent. */
  actor?: ActorInput;
}

/**
 * A reviewer asks the submitter a question; the case waits in `needs_clarification`. While it
 * waits, asking again revises the open question (a new event; the first one stays in the log).
 */
export async function requestClarification(
  actor: HitlActor,
  caseId: string,
  input: EventInput & { question?: string | null },
): Promise<HitlCommandResult> {
  if (typeof input.question !== "string" || input.question.trim() === "") throw hitlErrors.questionRequired();
  const question = requireText("question", input.question, HITL_LIMITS.questionChars);
  return mutateCase(actor, caseId, input.requestId, {
    action: "request_clarification",
    fields: { question, notes: notesOf(input.notes) },
    display: input.actor,
  });
}

/** The answer to the open question, by the person it was asked of or a reviewer; the case is `pending` again. */
export async function provideClarification(
  actor: HitlActor,
  caseId: string,
  input: EventInput & { answer?: string | null },
): Promise<HitlCommandResult> {
  if (typeof input.answer !== "string" || input.answer.trim() === "") throw hitlErrors.answerRequired();
  const answer = requireText("answer", input.answer, HITL_LIMITS.answerChars);
  const given = parsedDisplay(input.actor);
  await assertMayAnswer(actor, caseId);
  return mutateCase(actor, caseId, input.requestId, {
    action: "provide_clarification",
    fields: { answer, notes: notesOf(input.notes) },
    // Under the name the server knows: an answer speaks for whoever gave it (role, team and
    // kind stay the caller's display fields, as on every event).
    display: given && { ...given, name: principalDisplay(actor).name },
  });
}

export interface DecisionInput extends EventInput {
  outcome: HitlOutcome;
  /** Changes to the payload an approval carries ("approved with modifications"). */
  modifications?: Record<string, unknown>;
}

function decisionFields(input: DecisionInput) {
  if (!HITL_OUTCOMES.includes(input.outcome)) {
    throw errors.invalidField("decision", `decision is one of ${HITL_OUTCOMES.join(", ")}.`);
  }
  let modifications: Record<string, unknown> | null = null;
  if (input.modifications !== undefined && input.modifications !== null) {
    if (input.outcome !== "approved") {
      throw errors.invalidField("modifications", "Only an approval carries modifications.");
    }
    modifications = requireJsonObject("modifications", input.modifications);
  }
  return { outcome: input.outcome, modifications, notes: notesOf(input.notes) };
}

/**
 * The terminal decision: `approved` (optionally with modifications) or `rejected`. First one
 * wins. A case that belongs to a run resumes it with the decision: stored first, resumed
 * second; if the process dies in between, the resume sweep finishes the job.
 */
export async function recordDecision(
  actor: HitlActor,
  caseId: string,
  input: DecisionInput,
): Promise<HitlCommandResult> {
  const fields = decisionFields(input);
  const action: HitlAction = input.outcome === "approved" ? "approve" : "reject";
  const result = await mutateCase(actor, caseId, input.requestId, {
    action,
    fields,
    display: input.actor,
    withRunLink: true,
  });
  if (result.linkedRun) result.linkedRun = await announceCaseDecided(actor, result.event, result.linkedRun);
  return result;
}

/**
 * An admin replaces the decision that stands with another, saying why (`notes`, required). The
 * first decision stays in the log; the new `decision_superseded` event names it and becomes the
 * case's active decision. A run the case belonged to already went on with the first decision:
 * superseding corrects the record, it does not re-run anything.
 */
export async function supersedeDecision(
  actor: HitlActor,
  caseId: string,
  input: DecisionInput,
): Promise<HitlCommandResult> {
  const fields = decisionFields(input);
  if (fields.notes.trim() === "") {
    throw errors.invalidField("notes", "Superseding a decision needs the reason, in notes.");
  }
  return mutateCase(actor, caseId, input.requestId, { action: "supersede", fields, display: input.actor });
}
