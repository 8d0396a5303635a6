import { and, asc, desc, eq, exists, gt, gte, inArray, lte, type SQL, sql } from "drizzle-orm";
import { schema, type TenantScope, type Tx, withTenant } from "@/lib/db";
import { NotFoundError } from "@/lib/errors";
import { toEventView } from "./commands";
import type {
  BlockedRunItem,
  HitlActorKind,
  HitlCaseView,
  HitlEventView,
  HitlOutcome,
  HitlPage,
  HitlPriority,
  HitlQueueItem,
  HitlStateName,
  QueueCounts,
  RunCaseItem,
} from "./contract";
import { decodeCursor, keysetAfter, PAGE_MAX, pageSize, toPage } from "./cursor";
import { toProjection } from "./projection";
import { upcastPayload } from "./upcasters";
import { canSeeCase, type HitlViewer, seesEveryCase, visibleCases } from "./visibility";

// The queries of the HITL design, all tenant-scoped and keyset-paginated:
//  1 pending latest N .................... listReviewQueue
//  2 by id ............................... getCase (+ caseHistory)
//  3 reviewed, by decision and date range  listCases({outcome, decidedFrom, decidedTo})
//  4 by operator and date range .......... listCases({decidedBy, decidedFrom, decidedTo}), decisionLog
//  5 by adapter or ref ................... listCases({adapter, ref})
//  6 throughput and approval rates ....... decisionStats
//  7 who decided what and when ........... decisionLog
//  8 clarification backlog with age ...... clarificationBacklog
//  9 escalations due / overdue ........... escalationsDue
// 10 old schema versions read ............ listCases({oldSchema: true}) (payloads upcast by getCase)
//
// Each takes the viewer: a member is shown neither a case that carries another member's private
// content nor anything derived from it (counts, decisions, stats); see visibility.ts.

const cases = schema.hitlCases;
const events = schema.hitlEvents;
const state = schema.hitlState;
const refs = schema.hitlCaseRefs;
const registry = schema.hitlSchemaRegistry;

export const QUEUE_PAGE_MAX = PAGE_MAX;
export const OPEN_STATES: readonly HitlStateName[] = ["pending", "needs_clarification"];

/** Where a case stands, as the person it concerns reads it (the asker of a reviewed answer). */
export interface CaseStanding {
  caseId: string;
  state: HitlStateName;
  outcome: HitlOutcome | null;
  /** The reviewer's open question while the case needs clarification. */
  question: string | null;
  /** The notes of the decision that stands (a rejection's reason, usually); null when none. */
  reason: string | null;
  decidedAt: number | null;
}

/** The standing of each of these cases of the tenant (unknown ids are left out). */
export async function caseStandings(viewer: HitlViewer, caseIds: readonly string[]): Promise<CaseStanding[]> {
  if (caseIds.length === 0) return [];
  const rows = await withTenant(viewer, (tx) =>
    tx
      .select({
        caseId: state.caseId,
        state: state.state,
        outcome: state.outcome,
        question: state.openQuestion,
        reason: events.notes,
        decidedAt: state.decidedAt,
      })
      .from(state)
      .innerJoin(cases, eq(cases.id, state.caseId))
      .leftJoin(events, eq(events.id, state.decisionEventId))
      .where(and(inArray(state.caseId, [...caseIds]), visibleCases(viewer))),
  );
  return rows.map((r) => ({ ...r, reason: r.reason || null, decidedAt: r.decidedAt ?? null }));
}

/** The id of the case a request opened, if it did (the server's own cases: one per paused interrupt). */
export async function caseIdOfRequest(scope: TenantScope, requestId: string): Promise<string | null> {
  const [row] = await withTenant(scope, (tx) =>
    tx.select({ id: cases.id }).from(cases).where(eq(cases.requestId, requestId)),
  );
  return row?.id ?? null;
}

/** A case with its payload (read as the active schema version), references and projection. */
export async function getCase(viewer: HitlViewer, caseId: string): Promise<HitlCaseView> {
  return withTenant(viewer, async (tx) => {
    const [row] = await tx
      .select({ kase: cases, projection: state })
      .from(cases)
      .innerJoin(state, eq(state.caseId, cases.id))
      .where(eq(cases.id, caseId));
    // Another member's private case answers as if it did not exist.
    if (!row || !canSeeCase(viewer, row.kase)) throw new NotFoundError("HITL case", { case_id: caseId });
    const links = await tx
      .select()
      .from(refs)
      .where(eq(refs.caseId, caseId))
      .orderBy(asc(refs.createdAt), asc(refs.kind), asc(refs.key), asc(refs.refId));
    const [active] = await tx
      .select({ version: registry.version })
      .from(registry)
      .where(and(eq(registry.adapter, row.kase.adapter), eq(registry.active, true)));
    const read = upcastPayload(
      row.kase.adapter,
      row.kase.payload,
      row.kase.schemaVersion,
      active?.version ?? row.kase.schemaVersion,
    );
    return {
      id: row.kase.id,
      adapter: row.kase.adapter,
      schemaVersion: row.kase.schemaVersion,
      payloadVersion: read.version,
      payload: read.payload,
      caseType: row.kase.caseType,
      title: row.kase.title,
      priority: row.kase.priority,
      confidence: row.kase.confidence ?? null,
      payloadHash: row.kase.payloadHash,
      summary: row.kase.summary,
      submitter: {
        id: row.kase.createdBy,
        name: row.kase.submitterName,
        role: row.kase.submitterRole,
        team: row.kase.submitterTeam ?? null,
      },
      createdBy: row.kase.createdBy,
      createdAt: row.kase.createdAt,
      updatedAt: row.kase.updatedAt,
      refs: links.map((l) => ({ ref_type: l.kind, ref_key: l.key, ref_value: l.refId })),
      state: toProjection(row.projection),
    };
  });
}

/** Every event of a case, in order. */
export async function caseHistory(viewer: HitlViewer, caseId: string): Promise<HitlEventView[]> {
  return withTenant(viewer, async (tx) => {
    const [kase] = await tx
      .select({ id: cases.id, privateTo: cases.privateTo })
      .from(cases)
      .where(eq(cases.id, caseId));
    if (!kase || !canSeeCase(viewer, kase)) throw new NotFoundError("HITL case", { case_id: caseId });
    const rows = await tx.select().from(events).where(eq(events.caseId, caseId)).orderBy(asc(events.seq));
    return rows.map(toEventView);
  });
}

export interface CaseFilter {
  state?: HitlStateName[];
  adapter?: string;
  priority?: HitlPriority;
  /** Only cases escalated at least once (true) or never (false). */
  escalated?: boolean;
  outcome?: HitlOutcome;
  decidedBy?: string;
  createdBy?: string;
  /** Epoch ms, inclusive. */
  decidedFrom?: number;
  decidedTo?: number;
  createdFrom?: number;
  createdTo?: number;
  /** Only cases with this ref (ref_key optional: any key). */
  ref?: { ref_type: string; ref_key?: string; ref_value: string };
  /** Only cases submitted under an older schema version than the adapter's active one. */
  oldSchema?: boolean;
}

export interface PageOptions {
  limit?: number;
  cursor?: string | null;
  /** `created` (newest first, the default) or `decided` (most recent decision first). */
  sort?: "created" | "decided";
}

const queueColumns = {
  id: cases.id,
  adapter: cases.adapter,
  caseType: cases.caseType,
  title: cases.title,
  summary: cases.summary,
  confidence: cases.confidence,
  state: state.state,
  priority: state.priority,
  outcome: state.outcome,
  decidedBy: state.decidedBy,
  decidedAt: state.decidedAt,
  dueAt: state.dueAt,
  escalationLevel: state.escalationLevel,
  escalatedTo: state.escalatedTo,
  openQuestion: state.openQuestion,
  createdBy: cases.createdBy,
  createdAt: state.createdAt,
  updatedAt: state.updatedAt,
};

function filterConditions(filter: CaseFilter): (SQL | undefined)[] {
  return [
    filter.state && filter.state.length > 0 ? inArray(state.state, filter.state) : undefined,
    filter.adapter ? eq(state.adapter, filter.adapter) : undefined,
    filter.priority ? eq(state.priority, filter.priority) : undefined,
    filter.escalated === undefined
      ? undefined
      : filter.escalated
        ? gt(state.escalationLevel, 0)
        : eq(state.escalationLevel, 0),
    filter.outcome ? eq(state.outcome, filter.outcome) : undefined,
    filter.decidedBy ? eq(state.decidedBy, filter.decidedBy) : undefined,
    filter.createdBy ? eq(cases.createdBy, filter.createdBy) : undefined,
    filter.decidedFrom !== undefined ? gte(state.decidedAt, filter.decidedFrom) : undefined,
    filter.decidedTo !== undefined ? lte(state.decidedAt, filter.decidedTo) : undefined,
    filter.createdFrom !== undefined ? gte(state.createdAt, filter.createdFrom) : undefined,
    filter.createdTo !== undefined ? lte(state.createdAt, filter.createdTo) : undefined,
    filter.ref
      ? exists(
          sql`(select 1 from ${refs} where ${refs.caseId} = ${cases.id} and ${refs.kind} = ${filter.ref.ref_type} and ${refs.refId} = ${filter.ref.ref_value}${filter.ref.ref_key === undefined ? sql`` : sql` and ${refs.key} = ${filter.ref.ref_key}`})`,
        )
      : undefined,
    filter.oldSchema
      ? sql`${cases.schemaVersion} < (select ${registry.version} from ${registry} where ${registry.adapter} = ${cases.adapter} and ${registry.active})`
      : undefined,
  ];
}

async function casePage(
  tx: Tx,
  viewer: HitlViewer,
  filter: CaseFilter,
  options: PageOptions,
): Promise<HitlPage<HitlQueueItem>> {
  const limit = pageSize(options.limit);
  const after = options.cursor ? decodeCursor(options.cursor) : null;
  const byDecision = options.sort === "decided";
  const sortColumn = byDecision ? state.decidedAt : state.createdAt;
  const rows = await tx
    .select(queueColumns)
    .from(state)
    .innerJoin(cases, eq(cases.id, state.caseId))
    .where(
      and(
        visibleCases(viewer),
        ...filterConditions(filter),
        byDecision ? sql`${state.decidedAt} is not null` : undefined,
        keysetAfter(after, sortColumn, state.caseId, "desc"),
      ),
    )
    .orderBy(desc(sortColumn), desc(state.caseId))
    .limit(limit + 1);
  return toPage(rows, limit, (r) => [(byDecision ? r.decidedAt : r.createdAt) ?? 0, r.id]);
}

/** Cases matching every given filter, newest first (or most recently decided first). */
export async function listCases(
  viewer: HitlViewer,
  filter: CaseFilter = {},
  options: PageOptions = {},
): Promise<HitlPage<HitlQueueItem>> {
  return withTenant(viewer, (tx) => casePage(tx, viewer, filter, options));
}

/** The review queue: pending cases newest first (or the given open states and filters). */
export async function listReviewQueue(
  viewer: HitlViewer,
  options: PageOptions & Omit<CaseFilter, "outcome" | "decidedBy" | "decidedFrom" | "decidedTo"> = {},
): Promise<HitlPage<HitlQueueItem>> {
  const { limit, cursor, state: states, ...filter } = options;
  return withTenant(viewer, (tx) =>
    casePage(tx, viewer, { ...filter, state: states && states.length > 0 ? states : ["pending"] }, { limit, cursor }),
  );
}

/** Counts of open cases for the inbox's filters. */
export async function reviewQueueCounts(viewer: HitlViewer, now = Date.now()): Promise<QueueCounts> {
  return withTenant(viewer, async (tx) => {
    const query = tx
      .select({
        state: state.state,
        adapter: state.adapter,
        priority: state.priority,
        count: sql<number>`count(*)::int`,
        escalated: sql<number>`count(*) filter (where ${state.escalationLevel} > 0)::int`,
        overdue: sql<number>`count(*) filter (where ${state.dueAt} <= ${now})::int`,
      })
      .from(state)
      .$dynamic();
    // The join only for a viewer who does not see every case: the nav badge asks often.
    const rows = await (seesEveryCase(viewer)
      ? query.where(inArray(state.state, [...OPEN_STATES]))
      : query
          .innerJoin(cases, eq(cases.id, state.caseId))
          .where(and(inArray(state.state, [...OPEN_STATES]), visibleCases(viewer)))
    ).groupBy(state.state, state.adapter, state.priority);
    const counts: QueueCounts = {
      pending: 0,
      needsClarification: 0,
      escalated: 0,
      overdue: 0,
      byAdapter: {},
      byPriority: {},
    };
    for (const row of rows) {
      if (row.state === "pending") counts.pending += row.count;
      else counts.needsClarification += row.count;
      counts.escalated += row.escalated;
      counts.overdue += row.overdue;
      counts.byAdapter[row.adapter] = (counts.byAdapter[row.adapter] ?? 0) + row.count;
      counts.byPriority[row.priority] = (counts.byPriority[row.priority] ?? 0) + row.count;
    }
    return counts;
  });
}

export interface DecisionLogEntry {
  eventId: string;
  caseId: string;
  adapter: string;
  summary: string;
  outcome: HitlOutcome;
  actor: { kind: HitlActorKind; id: string; name: string; role: string };
  modified: boolean;
  notes: string;
  /** Set when an admin's decision replaced this one's predecessor. */
  supersedesEventId: string | null;
  decidedAt: number;
}

/** Who decided what and when: decision events, most recent first, optionally by one operator. */
export async function decisionLog(
  viewer: HitlViewer,
  filter: { actorId?: string; from?: number; to?: number } = {},
  options: Omit<PageOptions, "sort"> = {},
): Promise<HitlPage<DecisionLogEntry>> {
  const limit = pageSize(options.limit);
  const after = options.cursor ? decodeCursor(options.cursor) : null;
  return withTenant(viewer, async (tx) => {
    const rows = await tx
      .select({ event: events, adapter: cases.adapter, summary: cases.summary })
      .from(events)
      .innerJoin(cases, eq(cases.id, events.caseId))
      .where(
        and(
          inArray(events.type, ["decision_recorded", "decision_superseded"]),
          visibleCases(viewer),
          filter.actorId ? eq(events.actorId, filter.actorId) : undefined,
          filter.from !== undefined ? gte(events.createdAt, filter.from) : undefined,
          filter.to !== undefined ? lte(events.createdAt, filter.to) : undefined,
          keysetAfter(after, events.createdAt, events.id, "desc"),
        ),
      )
      .orderBy(desc(events.createdAt), desc(events.id))
      .limit(limit + 1);
    const page = toPage(rows, limit, (r) => [r.event.createdAt, r.event.id]);
    return {
      nextCursor: page.nextCursor,
      items: page.items.map(({ event, adapter, summary }) => ({
        eventId: event.id,
        caseId: event.caseId,
        adapter,
        summary,
        outcome: event.outcome as HitlOutcome,
        actor: { kind: event.actorKind, id: event.actorId, name: event.actorName, role: event.actorRole },
        modified: event.modifications !== null,
        notes: event.notes,
        supersedesEventId: event.supersedesEventId ?? null,
        decidedAt: event.createdAt,
      })),
    };
  });
}

export const STATS_BUCKETS = { hour: 3_600_000, day: 86_400_000, week: 7 * 86_400_000 } as const;

export interface DecisionStatsBucket {
  start: number;
  submitted: number;
  decided: number;
  approved: number;
  rejected: number;
  /** approved / decided, null when nothing was decided in the bucket. */
  approvalRate: number | null;
  rejectionRate: number | null;
}

/** Throughput and approval/rejection rates per hour, day or week over a time range (UTC). */
export async function decisionStats(
  viewer: HitlViewer,
  range: { from: number; to: number; bucket: keyof typeof STATS_BUCKETS },
): Promise<{ bucket: keyof typeof STATS_BUCKETS; buckets: DecisionStatsBucket[]; totals: DecisionStatsBucket }> {
  const size = STATS_BUCKETS[range.bucket];
  return withTenant(viewer, async (tx) => {
    // Inlined (a number from STATS_BUCKETS): a bound parameter would make GROUP BY and the
    // select list different expressions.
    const width = sql.raw(String(size));
    const start = sql<number>`(floor(${events.createdAt}::numeric / ${width}) * ${width})::bigint`;
    const query = tx
      .select({
        start,
        submitted: sql<number>`count(*) filter (where ${events.type} = 'submitted')::int`,
        approved: sql<number>`count(*) filter (where ${events.outcome} = 'approved')::int`,
        rejected: sql<number>`count(*) filter (where ${events.outcome} = 'rejected')::int`,
      })
      .from(events)
      .$dynamic();
    const inRange = and(
      inArray(events.type, ["submitted", "decision_recorded"]),
      gte(events.createdAt, range.from),
      lte(events.createdAt, range.to),
    );
    // The join only for a viewer who does not see every case.
    const rows = await (seesEveryCase(viewer)
      ? query.where(inRange)
      : query.innerJoin(cases, eq(cases.id, events.caseId)).where(and(inRange, visibleCases(viewer)))
    )
      .groupBy(start)
      .orderBy(start);
    const bucketOf = (b: { start: number; submitted: number; approved: number; rejected: number }) => {
      const decided = b.approved + b.rejected;
      return {
        start: Number(b.start),
        submitted: b.submitted,
        decided,
        approved: b.approved,
        rejected: b.rejected,
        approvalRate: decided === 0 ? null : b.approved / decided,
        rejectionRate: decided === 0 ? null : b.rejected / decided,
      };
    };
    const buckets = rows.map(bucketOf);
    const sum = (k: "submitted" | "approved" | "rejected") => buckets.reduce((n, b) => n + b[k], 0);
    return {
      bucket: range.bucket,
      buckets,
      totals: bucketOf({
        start: range.from,
        submitted: sum("submitted"),
        approved: sum("approved"),
        rejected: sum("rejected"),
      }),
    };
  });
}

export interface BacklogItem extends HitlQueueItem {
  /** How long the question has waited for an answer, in ms. */
  ageMs: number;
}

/** Cases waiting for the submitter's answer, oldest question first, with their age. */
export async function clarificationBacklog(
  viewer: HitlViewer,
  options: Omit<PageOptions, "sort"> & { now?: number } = {},
): Promise<HitlPage<BacklogItem>> {
  const limit = pageSize(options.limit);
  const after = options.cursor ? decodeCursor(options.cursor) : null;
  const now = options.now ?? Date.now();
  return withTenant(viewer, async (tx) => {
    // Aged from when the question was asked: an escalation in between updates the case, not the question.
    // (Set on every case in needs_clarification: by the fold, and by migration 0020 for older rows.)
    const since = state.needsClarificationSince;
    const rows = await tx
      .select({ ...queueColumns, since })
      .from(state)
      .innerJoin(cases, eq(cases.id, state.caseId))
      .where(
        and(
          eq(state.state, "needs_clarification"),
          visibleCases(viewer),
          keysetAfter(after, since, state.caseId, "asc"),
        ),
      )
      .orderBy(asc(since), asc(state.caseId))
      .limit(limit + 1);
    const page = toPage(rows, limit, (r) => [r.since ?? r.updatedAt, r.id]);
    return {
      nextCursor: page.nextCursor,
      items: page.items.map(({ since: asked, ...r }) => ({ ...r, ageMs: Math.max(0, now - (asked ?? r.updatedAt)) })),
    };
  });
}

export interface EscalationItem extends HitlQueueItem {
  overdue: boolean;
  /** Ms until the deadline (negative once overdue). */
  dueInMs: number;
}

/** Open cases with a deadline: `overdue` ones (past it) or `due` ones (within `horizonMs`), soonest first. */
export async function escalationsDue(
  viewer: HitlViewer,
  options: Omit<PageOptions, "sort"> & { which?: "due" | "overdue" | "all"; horizonMs?: number; now?: number } = {},
): Promise<HitlPage<EscalationItem>> {
  const limit = pageSize(options.limit);
  const after = options.cursor ? decodeCursor(options.cursor) : null;
  const now = options.now ?? Date.now();
  const which = options.which ?? "all";
  const horizon = now + (options.horizonMs ?? 24 * 3_600_000);
  return withTenant(viewer, async (tx) => {
    const rows = await tx
      .select(queueColumns)
      .from(state)
      .innerJoin(cases, eq(cases.id, state.caseId))
      .where(
        and(
          inArray(state.state, [...OPEN_STATES]),
          visibleCases(viewer),
          sql`${state.dueAt} is not null`,
          which === "overdue" ? lte(state.dueAt, now) : lte(state.dueAt, horizon),
          which === "due" ? gt(state.dueAt, now) : undefined,
          keysetAfter(after, state.dueAt, state.caseId, "asc"),
        ),
      )
      .orderBy(asc(state.dueAt), asc(state.caseId))
      .limit(limit + 1);
    const page = toPage(rows, limit, (r) => [r.dueAt ?? 0, r.id]);
    return {
      nextCursor: page.nextCursor,
      items: page.items.map((r) => ({ ...r, overdue: (r.dueAt ?? 0) <= now, dueInMs: (r.dueAt ?? 0) - now })),
    };
  });
}

/**
 * The open cases that hold up runs this person started: each one a checkpoint a reviewer
 * decides, or — in `needs_clarification` — a reviewer's question that only the run's owner
 * can answer ("My requests" and its nav badge). Oldest first: the longest wait leads.
 */
export async function openCasesOfOwnRuns(viewer: HitlViewer & { userId: string }, limit = 50): Promise<RunCaseItem[]> {
  const runRef = sql<string>`(select r.ref_value from ${refs} r where r.case_id = ${cases.id} and r.ref_type = 'run' order by r.created_at_ms, r.ref_value limit 1)`;
  const rows = await withTenant(viewer, (tx) =>
    tx
      .select({ ...queueColumns, runId: runRef })
      .from(state)
      .innerJoin(cases, eq(cases.id, state.caseId))
      .where(
        and(
          visibleCases(viewer),
          eq(cases.privateTo, viewer.userId),
          inArray(state.state, [...OPEN_STATES]),
          exists(sql`(select 1 from ${refs} where ${refs.caseId} = ${cases.id} and ${refs.kind} = 'run')`),
          // The review of a chat answer is the asker's too, but "My requests" lists it with the
          // answers (and counts its question there): listed here as well, it counted twice.
          sql`not exists (select 1 from ${refs} r where r.case_id = ${cases.id} and r.ref_type = 'chat_session')`,
        ),
      )
      .orderBy(state.createdAt, state.caseId)
      .limit(Math.min(Math.max(limit, 1), PAGE_MAX)),
  );
  return rows;
}

/**
 * Open cases a run is stopped at right now (a `run` ref whose run is `interrupted`; not the
 * review of a chat answer, whose asker has the answer already), the longest wait first: work that stands still until someone decides. The inbox lists them
 * above the rest of the queue with how long they have waited.
 */
export async function blockedRunCases(viewer: HitlViewer, limit = 50, now = Date.now()): Promise<BlockedRunItem[]> {
  const runRef = sql<string>`(select r.ref_value from ${refs} r where r.case_id = ${cases.id} and r.ref_type = 'run' order by r.created_at_ms, r.ref_value limit 1)`;
  const rows = await withTenant(viewer, (tx) =>
    tx
      .select({ ...queueColumns, runId: runRef })
      .from(state)
      .innerJoin(cases, eq(cases.id, state.caseId))
      .where(
        and(
          visibleCases(viewer),
          inArray(state.state, [...OPEN_STATES]),
          exists(
            sql`(select 1 from ${refs} r join ${schema.runs} run on run.id::text = r.ref_value
              where r.case_id = ${cases.id} and r.ref_type = 'run' and run.status = 'interrupted')`,
          ),
          // The review of a chat answer waits beside a consultation that already has its answer.
          sql`not exists (select 1 from ${refs} r where r.case_id = ${cases.id} and r.ref_type = 'chat_session')`,
        ),
      )
      .orderBy(state.createdAt, state.caseId)
      .limit(Math.min(Math.max(limit, 1), PAGE_MAX)),
  );
  return rows.map((row) => ({ ...row, waitingMs: Math.max(0, now - row.createdAt) }));
}
