import { z } from "zod";
import { errors } from "@/lib/errors";
import { listCases, listReviewQueue } from "@/lib/hitl";
import { defineTool } from "./tool";
import { adapterFilter, CASE_STATES, OPEN_STATES, OUTCOMES, PRIORITIES, page, ref } from "./vocabulary";

// The two lists: every case by any filter, and the review queue (what waits for a reviewer).
// Both page with an opaque cursor and answer like GET /api/hitl/cases and /api/hitl/queue.

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

/** `{count, items, next_cursor}`: the envelope of every list of the HITL API. */
function listBody<T>(result: { items: T[]; nextCursor: string | null }) {
  return { count: result.items.length, items: result.items, next_cursor: result.nextCursor };
}

export const listCasesTool = defineTool({
  name: "list_cases",
  title: "List cases",
  description:
    "Cases of the tenant matching every given filter, newest first (sort decided: most recently decided " +
    "first), a page at a time. E.g. the approvals of one reviewer last week: outcome approved, decided_by, " +
    "decided_from, decided_to. Items carry the state, priority, outcome, decidedBy and due time, not the payload " +
    "(get_case has it).",
  input: z.strictObject({
    state: z.array(z.enum(CASE_STATES)).min(1).max(CASE_STATES.length).optional().describe("Any of these states."),
    adapter: adapterFilter,
    priority: z.enum(PRIORITIES).optional(),
    escalated: z.boolean().optional().describe("Only cases escalated at least once (true) or never (false)."),
    outcome: z.enum(OUTCOMES).optional(),
    decided_by: z.string().min(1).max(200).optional().describe("The deciding principal's id (decidedBy)."),
    created_by: z.string().min(1).max(200).optional().describe("The submitting principal's id (createdBy)."),
    decided_from: time("Decided at or after"),
    decided_to: time("Decided at or before"),
    created_from: time("Submitted at or after"),
    created_to: time("Submitted at or before"),
    ref: ref.optional().describe("Only cases linked to this run, thread, … or external id."),
    old_schema: z
      .boolean()
      .optional()
      .describe("Only cases submitted under an older schema version than the active one."),
    sort: z.enum(["created", "decided"]).optional().describe("created (default) or decided."),
    ...page,
  }),
  annotations: listAnnotations,
  run: async (actor, args) => {
    const [decidedFrom, decidedTo] = range("decided_from", args.decided_from, args.decided_to);
    const [createdFrom, createdTo] = range("created_from", args.created_from, args.created_to);
    const page = await listCases(
      actor,
      {
        state: args.state,
        adapter: args.adapter,
        priority: args.priority,
        escalated: args.escalated,
        outcome: args.outcome,
        decidedBy: args.decided_by,
        createdBy: args.created_by,
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
    "What waits for a reviewer: cases in state pending (or the open states given), newest first, a page at a time.",
  input: z.strictObject({
    state: z
      .array(z.enum(OPEN_STATES))
      .min(1)
      .max(OPEN_STATES.length)
      .optional()
      .describe("Open states to list (pending)."),
    adapter: adapterFilter,
    priority: z.enum(PRIORITIES).optional(),
    escalated: z.boolean().optional().describe("Only escalated cases (true) or only others (false)."),
    ...page,
  }),
  annotations: listAnnotations,
  run: async (actor, args) =>
    listBody(
      await listReviewQueue(actor, {
        state: args.state,
        adapter: args.adapter,
        priority: args.priority,
        escalated: args.escalated,
        limit: args.limit,
        cursor: args.cursor,
      }),
    ),
});
