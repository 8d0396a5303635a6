import type { z } from "zod";

/** An error a caller can act on. `route()` turns it into the documented error shape. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "AppError";
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

export const errors = {
  badJson: () => new AppError(400, "INVALID_JSON", "The request body is not valid JSON."),
  validation: (issues: z.core.$ZodIssue[]) =>
    new AppError(
      400,
      "VALIDATION_FAILED",
      "The request does not match the expected shape.",
      issues.map((i) => ({ path: i.path.join("."), message: i.message })),
    ),
  invalidField: (path: string, message: string) =>
    new AppError(400, "VALIDATION_FAILED", "The request does not match the expected shape.", [{ path, message }]),
  tooLarge: (limit: number) =>
    new AppError(413, "PAYLOAD_TOO_LARGE", `The request body is larger than ${limit} bytes.`, { limit }),
  unsupportedMediaType: (expected: string) =>
    new AppError(415, "UNSUPPORTED_MEDIA_TYPE", `Send the body as ${expected}.`),
  unauthenticated: () => new AppError(401, "UNAUTHENTICATED", "Sign in or send a valid API key."),
  forbidden: (message = "Your role does not allow this.") => new AppError(403, "FORBIDDEN", message),
  conflict: (code: string, message: string, details?: unknown) => new AppError(409, code, message, details),
};
