import { DomainError } from "@/lib/errors";

/** The design's name for what a command asked (approving and rejecting are both `record_decision`). */
const DESIGN_ACTION: Readonly<Record<string, string>> = {
  approve: "record_decision",
  reject: "record_decision",
  supersede: "supersede_decision",
};

export const hitlErrors = {
  /** As the design answers it: `from_state` and `requested_action` at the top level (and in details). */
  invalidTransition: (fromState: string, action: string) => {
    const transition = { from_state: fromState, requested_action: DESIGN_ACTION[action] ?? action };
    return new DomainError(
      "conflict",
      "INVALID_STATE_TRANSITION",
      `A case in state ${fromState} does not allow ${transition.requested_action}.`,
      transition,
      transition,
    );
  },
  questionRequired: () =>
    new DomainError("invalid", "QUESTION_REQUIRED", "Asking for clarification needs a question.", [
      { path: "question", message: "question is required." },
    ]),
  answerRequired: () =>
    new DomainError("invalid", "ANSWER_REQUIRED", "Providing clarification needs an answer.", [
      { path: "answer", message: "answer is required." },
    ]),
  alreadyTerminal: (details: Record<string, unknown>) =>
    new DomainError("conflict", "ALREADY_TERMINAL", "The case is already decided; the first decision stands.", details),
  idempotencyConflict: (requestId: string, caseId: string | null) =>
    new DomainError("conflict", "IDEMPOTENCY_CONFLICT", "This request_id was already used for a different request.", {
      request_id: requestId,
      case_id: caseId,
    }),
  /** `details` is the list of issues, as the design has it; the adapter and version ride alongside. */
  payloadInvalid: (adapter: string, version: number, issues: unknown[]) =>
    new DomainError(
      "unprocessable",
      "PAYLOAD_INVALID",
      `The payload does not match the ${adapter} schema (version ${version}).`,
      issues,
      { adapter_id: adapter, schema_version: version },
    ),
  adapterNotFound: (adapter: string) =>
    new DomainError("not_found", "ADAPTER_NOT_FOUND", `There is no active adapter named "${adapter}".`, {
      adapter_id: adapter,
    }),
  tooLarge: (field: string, limit: number) =>
    new DomainError("too_large", "PAYLOAD_TOO_LARGE", `${field} is larger than ${limit} bytes.`, { field, limit }),
  notTheAsker: () =>
    new DomainError(
      "forbidden",
      "FORBIDDEN",
      "Only the person the question was asked of (the case's submitter, or the owner of the run or answer it is about) or a reviewer answers it.",
      { requested_action: "provide_clarification" },
    ),
  forbidden: (action: string) => {
    const requested = DESIGN_ACTION[action] ?? action;
    return new DomainError("forbidden", "FORBIDDEN", `Your role does not allow ${requested}.`, {
      requested_action: requested,
    });
  },
};
