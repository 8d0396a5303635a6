import { AppError } from "@/lib/http";

export const hitlErrors = {
  invalidTransition: (fromState: string, requestedAction: string) =>
    new AppError(409, "INVALID_STATE_TRANSITION", `A case in state ${fromState} does not allow ${requestedAction}.`, {
      from_state: fromState,
      requested_action: requestedAction,
    }),
  alreadyTerminal: (details: Record<string, unknown>) =>
    new AppError(409, "ALREADY_TERMINAL", "The case is already decided; the first decision stands.", details),
  idempotencyConflict: (requestId: string, caseId: string | null) =>
    new AppError(409, "IDEMPOTENCY_CONFLICT", "This request_id was already used for a different request.", {
      request_id: requestId,
      case_id: caseId,
    }),
  payloadInvalid: (adapter: string, version: number, issues: unknown[]) =>
    new AppError(422, "PAYLOAD_INVALID", `The payload does not match the ${adapter} schema (version ${version}).`, {
      adapter,
      version,
      issues,
    }),
  adapterNotFound: (adapter: string) =>
    new AppError(404, "ADAPTER_NOT_FOUND", `There is no active adapter named "${adapter}".`, { adapter }),
  tooLarge: (field: string, limit: number) =>
    new AppError(413, "PAYLOAD_TOO_LARGE", `${field} is larger than ${limit} bytes.`, { field, limit }),
  forbidden: (action: string) =>
    new AppError(403, "FORBIDDEN", `Your role does not allow ${action}.`, { requested_action: action }),
};
