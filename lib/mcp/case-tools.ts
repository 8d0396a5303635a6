import { z } from "zod";
import {
  caseHistory,
  getCase,
  HITL_LIMITS,
  provideClarification,
  recordDecision,
  requestClarification,
  SubmitCase,
  submitCase,
} from "@/lib/hitl";
import { defineTool } from "./tool";
import { caseId, OUTCOMES, requestId } from "./vocabulary";

// The case tools: submit, ask and answer, decide, read. Arguments are snake_case; results are the
// REST API's bodies. The principal (tenant, role, actor id) comes from the API key.

const readOnly = { readOnlyHint: true, openWorldHint: false } as const;
/** Mutations are idempotent by request_id; none deletes anything. */
const mutation = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

export const submitCaseTool = defineTool({
  name: "submit_case",
  title: "Submit a case for human review",
  description:
    "Opens a review case (state pending) that a human reviewer approves or rejects. The payload is validated " +
    "against the adapter's active JSON Schema (PAYLOAD_INVALID lists the failing fields). Poll get_case for the " +
    "decision; in state needs_clarification, answer state.openQuestion with provide_clarification.",
  input: SubmitCase,
  annotations: mutation,
  run: (actor, args) =>
    submitCase(actor, {
      adapter: args.adapter,
      payload: args.payload,
      summary: args.summary,
      requestId: args.request_id,
      refs: args.refs,
      priority: args.priority,
    }),
});

export const getCaseTool = defineTool({
  name: "get_case",
  title: "Get a case",
  description:
    "A case with its payload, refs and current state (case.state.state: pending | needs_clarification | " +
    "approved | rejected; case.state.outcome, decidedBy, openQuestion), and its history.",
  input: z.strictObject({ case_id: caseId }),
  annotations: readOnly,
  run: async (actor, args) => ({
    case: await getCase(actor, args.case_id),
    history: await caseHistory(actor, args.case_id),
  }),
});

export const getCaseHistoryTool = defineTool({
  name: "get_case_history",
  title: "Get a case's history",
  description: "Every event of a case in order: submission, questions, answers, the decision — who, when, what.",
  input: z.strictObject({ case_id: caseId }),
  annotations: readOnly,
  run: async (actor, args) => {
    const events = await caseHistory(actor, args.case_id);
    return { case_id: args.case_id, count: events.length, items: events };
  },
});

export const requestClarificationTool = defineTool({
  name: "request_clarification",
  title: "Ask the submitter a question",
  description:
    "Reviewer or admin: puts a pending case in needs_clarification with a question for the submitter. " +
    "A member key is refused with FORBIDDEN.",
  input: z.strictObject({
    case_id: caseId,
    question: z.string().max(HITL_LIMITS.questionChars).optional().describe("Required (QUESTION_REQUIRED)."),
    request_id: requestId,
  }),
  annotations: mutation,
  run: (actor, args) =>
    requestClarification(actor, args.case_id, { requestId: args.request_id, question: args.question }),
});

export const provideClarificationTool = defineTool({
  name: "provide_clarification",
  title: "Answer a reviewer's question",
  description: "Answers the open question of a case in needs_clarification; the case is pending again.",
  input: z.strictObject({
    case_id: caseId,
    answer: z.string().max(HITL_LIMITS.answerChars).optional().describe("Required (ANSWER_REQUIRED)."),
    request_id: requestId,
  }),
  annotations: mutation,
  run: (actor, args) => provideClarification(actor, args.case_id, { requestId: args.request_id, answer: args.answer }),
});

export const recordDecisionTool = defineTool({
  name: "record_decision",
  title: "Decide a case",
  description:
    "Reviewer or admin: approves or rejects a case. The first decision wins; a later one is refused with " +
    "ALREADY_TERMINAL and names the decision that stands. An approval may carry modifications (fields that " +
    "replace the payload's; the result must still match the adapter's schema).",
  input: z.strictObject({
    case_id: caseId,
    outcome: z.enum(OUTCOMES),
    modifications: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('Only with outcome "approved": the payload fields the approval changes.'),
    reason: z.string().min(1).max(HITL_LIMITS.reasonChars).optional(),
    request_id: requestId,
  }),
  annotations: mutation,
  run: (actor, args) =>
    recordDecision(actor, args.case_id, {
      requestId: args.request_id,
      outcome: args.outcome,
      modifications: args.modifications,
      reason: args.reason,
    }),
});
