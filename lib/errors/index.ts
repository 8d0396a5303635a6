import type { z } from "zod";

/**
 * What went wrong, in the caller's terms. Each transport maps a kind to its own status
 * (`lib/http` to HTTP, the MCP server to a tool error), so domain code never names one.
 */
export type ErrorKind =
  | "invalid"
  | "unauthenticated"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "unprocessable"
  | "too_large"
  | "unsupported_media"
  | "rate_limited"
  | "unavailable";

/**
 * An error a caller can act on; it leaves every transport in the documented error shape:
 * `{status: "error", code, message, ...fields, details}`. `fields` are top-level members a
 * design names for its error (INVALID_STATE_TRANSITION's `from_state` and `requested_action`).
 */
export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    readonly fields?: Readonly<Record<string, unknown>>,
  ) {
    super(message);
    this.name = "DomainError";
  }
}

/** A missing resource answers `{status:"not_found", …}` rather than the error shape. */
export class NotFoundError extends Error {
  constructor(
    readonly resource: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(`${resource} not found`);
    this.name = "NotFoundError";
  }
}

const VALIDATION_MESSAGE = "The request does not match the expected shape.";

export const errors = {
  badJson: () => new DomainError("invalid", "INVALID_JSON", "The request body is not valid JSON."),
  // A rule written for people (a refinement's own message) leads the error; zod's built-in
  // findings stay in `details` for the form to place under each field.
  validation: (issues: z.core.$ZodIssue[]) =>
    new DomainError(
      "invalid",
      "VALIDATION_FAILED",
      issues.find((i) => i.code === "custom")?.message ?? VALIDATION_MESSAGE,
      issues.map((i) => ({ path: i.path.join("."), message: i.message })),
    ),
  invalidField: (path: string, message: string) =>
    new DomainError("invalid", "VALIDATION_FAILED", message, [{ path, message }]),
  tooLarge: (limit: number) =>
    new DomainError("too_large", "PAYLOAD_TOO_LARGE", `The request body is larger than ${limit} bytes.`, { limit }),
  unsupportedMediaType: (expected: string) =>
    new DomainError("unsupported_media", "UNSUPPORTED_MEDIA_TYPE", `Send the body as ${expected}.`),
  unauthenticated: () => new DomainError("unauthenticated", "UNAUTHENTICATED", "Sign in or send a valid API key."),
  forbidden: (message = "Your role does not allow this.") => new DomainError("forbidden", "FORBIDDEN", message),
  conflict: (code: string, message: string, details?: unknown) => new DomainError("conflict", code, message, details),
};
