import { z } from "zod";
import { errors } from "@/lib/errors";
import { listCases, listReviewQueue } from "@/lib/hitl";
import { queueRecord } from "./records";
import { defineTool } from "./tool";
import { adapterFilter, CASE_STATES, OPEN_STATES, OUTCOMES, PRIORITIES, page, refFilter } from "./vocabulary";

// The two lists: every case by any filter, and the review queue (what waits for a reviewer).
// Both page with an opaque cursor, filter like GET /api/hitl/cases and /api/hitl/queue, and answer
// with the design's records.

const DAY_MS = 86_400_000;

const time = (what: string) =>
  z
    .union([z.number().int().min(0), z.iso.datetime({ offset: true }), z.iso.date()])
    .optional()
    .describe(`${what}, inclusive: epoch ms, or an ISO 8601 date-time (2025-01-01T09:30:00Z) or date (2025-01-01).`);

/** Epoch ms of a time argument; a date alone is midnight UTC, or the whole day as an upper bound. */
function epochMs(value: number | string | undefined, bound: "start" | "end"): number | undefined {
  if (value === undefined || typeof value === "number") return value;
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const ms = Date.parse(dateOnly ? `${value}T00:00:00Z` : value);
  return dateOnly && bound === "end" ? ms + DAY_MS - 1 : ms;
}

function range(field: string, from: number | string | undefined, to: number | string | undefined) {
  const [start, end] = [epochMs(from, "start"), epochMs(to, "end")];
  if (start !== undefined && end !== undefined && start > end) {
    throw errors.invalidField(field, `${field} is after the end of the range.`);
  }
  return [start, end] as const;
}

const listAnnotations = { readOnlyHint: true, openWorldHint: false } as const;

/** `{count, items, next_cursor}`: the envelope of every list of the HITL API, items as the design names them. */
function listBody(result: { items: Parameters<typeof queueRecord>[0][]; nextCursor: string | null }) {
  return { count: result.items.length, items: result.items.map(queueRecord), next_cursor: result.nextCursor };
}

/** The design's `state?`: one state or a list of them. */
const states = <T extends readonly [string, ...string[]]>(values: T, what: string) =>
  z
    .union([z.enum(values), z.array(z.enum(values)).min(1).max(values.length)])
    .optional()
    .describe(what);

const asList = <T>(value: T | T[] | undefined): T[] | undefined =>
  value === undefined ? undefined : Array.isArray(value) ? value : [value];

export const listCasesTool = defineTool({
  name: "list_cases",
  title: "List cases",
  description:
    "Cases of the tenant matching every given filter, newest first (sort decided: most recently decided " +
    "first), a page at a time. E.g. the approvals of one reviewer last week: decision_outcome approved, " +
    "decided_by, decided_from, decided_to. Items carry current_state, priority, active_decision_outcome, " +
    "decided_by and the escalation due time, not the payload (get_case has it).",
  input: z.strictObject({
    state: states(CASE_STATES, "One state or a list: any of them."),
    adapter_id: adapterFilter,
    priority: z.enum(PRIORITIES).optional(),
    ...page,
    escalated: z.boolean().optional().describe("Only cases escalated at least once (true) or never (false)."),
    decision_outcome: z.enum(OUTCOMES).optional().describe("Only cases whose standing decision is this."),
    decided_by: z.string().min(1).max(200).optional().describe("The deciding principal's id."),
    submitter_id: z.string().min(1).max(200).optional().describe("The submitting principal's id."),
    decided_from: time("Decided at or after"),
    decided_to: time("Decided at or before"),
    created_from: time("Submitted at or after"),
    created_to: time("Submitted at or before"),
    ref: refFilter.optional().describe("Only cases with this ref (ref_key optional)."),
    old_schema: z
      .boolean()
      .optional()
      .describe("Only cases submitted under an older schema version than the active one."),
    sort: z.enum(["created", "decided"]).optional().describe("created (default) or decided."),
  }),
  annotations: listAnnotations,
  run: async (actor, args) => {
    const [decidedFrom, decidedTo] = range("decided_from", args.decided_from, args.decided_to);
    const [createdFrom, createdTo] = range("created_from", args.created_from, args.created_to);
    const page = await listCases(
      actor,
      {
        state: asList(args.state),
        adapter: args.adapter_id,
        priority: args.priority,
        escalated: args.escalated,
        outcome: args.decision_outcome,
        decidedBy: args.decided_by,
        createdBy: args.submitter_id,
        decidedFrom,
        decidedTo,
        createdFrom,
        createdTo,
        ref: args.ref,
        oldSchema: args.old_schema,
      },
      { limit: args.limit, cursor: args.cursor, sort: args.sort },
    );
    return listBody(page);
  },
});

export const listReviewQueueTool = defineTool({
  name: "list_review_queue",
  title: "List the review queue",
  description:
    "What waits for a reviewer: cases in current_state pending (or the open states given), newest first, a page " +
    "at a time.",
  input: z.strictObject({
    adapter_id: adapterFilter,
    priority: z.enum(PRIORITIES).optional(),
    state: states(OPEN_STATES, "pending (default), needs_clarification, or a list of both."),
    ...page,
    escalated: z.boolean().optional().describe("Only escalated cases (true) or only others (false)."),
  }),
  annotations: listAnnotations,
  run: async (actor, args) =>
    listBody(
      await listReviewQueue(actor, {
        state: asList(args.state),
        adapter: args.adapter_id,
        priority: args.priority,
        escalated: args.escalated,
        limit: args.limit,
        cursor: args.cursor,
      }),
    ),
});
