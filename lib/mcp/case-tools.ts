import { z } from "zod";
import {
  ActorInput,
  caseHistory,
  getCase,
  HITL_LIMITS,
  Notes,
  provideClarification,
  recordDecision,
  requestClarification,
  SubmitCase,
  submitCase,
  supersedeDecision,
} from "@/lib/hitl";
import { caseRecord, commandRecord, eventRecord } from "./records";
import { defineTool } from "./tool";
import { caseId, OUTCOMES, requestId } from "./vocabulary";

// The case tools, with the HITL design's signatures: submit, ask and answer, decide, read.
// `actor` and `submitter` are display fields (name, role, team, kind); the principal that is
// recorded as actor_id / submitter_id and that is authorised is the API key's.

const readOnly = { readOnlyHint: true, openWorldHint: false } as const;
/** Mutations are idempotent by request_id; none deletes anything. */
const mutation = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

const actor = ActorInput.describe("Who acts, for the record: name, role, team, kind (operator or agent).");
const notes = Notes;

/** What every event-writing tool passes on: its idempotency key, notes and display actor. */
const eventInput = (args: { request_id: string; notes: string; actor: ActorInput }) => ({
  requestId: args.request_id,
  notes: args.notes,
  actor: args.actor,
});

export const submitCaseTool = defineTool({
  name: "submit_case",
  title: "Submit a case for human review",
  description:
    "Opens a review case (current_state pending) that a human reviewer approves or rejects. The payload is " +
    "validated against the adapter's active JSON Schema (PAYLOAD_INVALID lists the failing fields in details). " +
    "Poll get_case for the decision; in needs_clarification, answer state.open_question with provide_clarification.",
  input: SubmitCase,
  annotations: mutation,
  run: async (principal, args) =>
    commandRecord(
      await submitCase(principal, {
        adapter: args.adapter_id,
        caseType: args.case_type,
        title: args.title,
        summary: args.summary,
        payload: args.payload,
        submitter: args.submitter,
        priority: args.priority,
        confidence: args.confidence,
        refs: args.refs,
        requestId: args.request_id,
      }),
    ),
});

export const getCaseTool = defineTool({
  name: "get_case",
  title: "Get a case",
  description:
    "A case: its envelope (adapter_id, case_type, title, summary, payload, submitter, priority, confidence), refs " +
    "and state (current_state: pending | needs_clarification | approved | rejected; active_decision_outcome, " +
    "open_question), with its history.",
  input: z.strictObject({ case_id: caseId }),
  annotations: readOnly,
  run: async (principal, args) => ({
    case: caseRecord(await getCase(principal, args.case_id)),
    history: (await caseHistory(principal, args.case_id)).map(eventRecord),
  }),
});

export const getCaseHistoryTool = defineTool({
  name: "get_case_history",
  title: "Get a case's history",
  description:
    "Every event of a case in order (submitted, needs_clarification, clarification_provided, decision_recorded, " +
    "decision_superseded, escalated): who (actor_kind, actor_name, actor_role, actor_id, actor_team), when, notes.",
  input: z.strictObject({ case_id: caseId }),
  annotations: readOnly,
  run: async (principal, args) => {
    const events = (await caseHistory(principal, args.case_id)).map(eventRecord);
    return { case_id: args.case_id, count: events.length, items: events };
  },
});

export const requestClarificationTool = defineTool({
  name: "request_clarification",
  title: "Ask the submitter a question",
  description:
    "Reviewer or admin: moves a pending case to needs_clarification with a question for the submitter; on a case " +
    "already waiting, revises the open question. A member key is refused with FORBIDDEN; no question is " +
    "QUESTION_REQUIRED.",
  input: z.strictObject({
    case_id: caseId,
    question: z.string().max(HITL_LIMITS.questionChars).optional().describe("Required (QUESTION_REQUIRED)."),
    notes,
    actor,
    request_id: requestId,
  }),
  annotations: mutation,
  run: async (principal, args) =>
    commandRecord(
      await requestClarification(principal, args.case_id, { ...eventInput(args), question: args.question }),
    ),
});

export const provideClarificationTool = defineTool({
  name: "provide_clarification",
  title: "Answer a reviewer's question",
  description:
    "Answers the open question of a case in needs_clarification; the case is pending again. No answer is " +
    "ANSWER_REQUIRED.",
  input: z.strictObject({
    case_id: caseId,
    answer: z.string().max(HITL_LIMITS.answerChars).optional().describe("Required (ANSWER_REQUIRED)."),
    notes,
    actor,
    request_id: requestId,
  }),
  annotations: mutation,
  run: async (principal, args) =>
    commandRecord(await provideClarification(principal, args.case_id, { ...eventInput(args), answer: args.answer })),
});

const Decision = z.strictObject({
  case_id: caseId,
  decision: z.enum(OUTCOMES).describe("approved or rejected."),
  notes,
  actor,
  modifications: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('Only with decision "approved": the payload fields the approval changes.'),
  request_id: requestId,
});

/** record_decision's and supersede_decision's arguments as the core takes them. */
const decisionInput = (args: z.output<typeof Decision>) => ({
  ...eventInput(args),
  outcome: args.decision,
  modifications: args.modifications,
});

export const recordDecisionTool = defineTool({
  name: "record_decision",
  title: "Decide a case",
  description:
    "Approves or rejects a case: a reviewer or admin, or on a run's checkpoint whoever the tenant's " +
    "separation-of-duties policy allows (the run's owner, or four eyes: a reviewer other than the owner); " +
    "others are refused with FORBIDDEN. The history records what allowed it (authorization). " +
    "The first decision wins; a later one is refused with " +
    "ALREADY_TERMINAL and names the decision that stands. An approval may carry modifications (fields that " +
    "replace the payload's; the result must still match the adapter's schema).",
  input: Decision,
  annotations: mutation,
  run: async (principal, args) => commandRecord(await recordDecision(principal, args.case_id, decisionInput(args))),
});

export const supersedeDecisionTool = defineTool({
  name: "supersede_decision",
  title: "Supersede a decision",
  description:
    "Admin only: replaces the decision that stands on a decided case with another, giving the reason in notes " +
    "(required). The first decision stays in the history; a decision_superseded event names it " +
    "(supersedes_event_id). It corrects the record: a run that already went on with the first decision is not re-run.",
  input: Decision,
  annotations: mutation,
  run: async (principal, args) => commandRecord(await supersedeDecision(principal, args.case_id, decisionInput(args))),
});
