import { DomainError } from "@/lib/errors";

export const hitlErrors = {
  invalidTransition: (fromState: string, requestedAction: string) =>
    new DomainError(
      "conflict",
      "INVALID_STATE_TRANSITION",
      `A case in state ${fromState} does not allow ${requestedAction}.`,
      {
        from_state: fromState,
        requested_action: requestedAction,
      },
    ),
  alreadyTerminal: (details: Record<string, unknown>) =>
    new DomainError("conflict", "ALREADY_TERMINAL", "The case is already decided; the first decision stands.", details),
  idempotencyConflict: (requestId: string, caseId: string | null) =>
    new DomainError("conflict", "IDEMPOTENCY_CONFLICT", "This request_id was already used for a different request.", {
      request_id: requestId,
      case_id: caseId,
    }),
  payloadInvalid: (adapter: string, version: number, issues: unknown[]) =>
    new DomainError(
      "unprocessable",
      "PAYLOAD_INVALID",
      `The payload does not match the ${adapter} schema (version ${version}).`,
      {
        adapter,
        version,
        issues,
      },
    ),
  adapterNotFound: (adapter: string) =>
    new DomainError("not_found", "ADAPTER_NOT_FOUND", `There is no active adapter named "${adapter}".`, { adapter }),
  tooLarge: (field: string, limit: number) =>
    new DomainError("too_large", "PAYLOAD_TOO_LARGE", `${field} is larger than ${limit} bytes.`, { field, limit }),
  forbidden: (action: string) =>
    new DomainError("forbidden", "FORBIDDEN", `Your role does not allow ${action}.`, { requested_action: action }),
};
