import { DomainError, type ErrorKind, NotFoundError } from "@/lib/errors";

const STATUS: Record<ErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  unsupported_media: 415,
  unprocessable: 422,
  rate_limited: 429,
  unavailable: 503,
};

/** The HTTP status a domain error answers with. */
export function statusOf(error: DomainError): number {
  return STATUS[error.kind];
}

type Handler<C> = (req: Request, context: C) => Promise<Response>;

export function json(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set("content-type", "application/json; charset=utf-8");
  headers.set("cache-control", "no-store");
  return new Response(JSON.stringify(body), { ...init, headers });
}

export function errorResponse(error: unknown): Response {
  if (error instanceof DomainError) {
    const body: Record<string, unknown> = {
      status: "error",
      code: error.code,
      message: error.message,
      ...error.fields,
    };
    if (error.details !== undefined) body.details = error.details;
    return json(body, { status: statusOf(error) });
  }
  if (error instanceof NotFoundError) {
    return json({ status: "not_found", message: error.message, ...error.extra }, { status: 404 });
  }
  // Anything else is our fault: log it in full, answer without internals.
  console.error("[vigil] unhandled error", error);
  return json({ status: "error", code: "INTERNAL", message: "Something went wrong on our side." }, { status: 500 });
}

/** Wraps a route handler so every thrown error leaves in the documented shape. */
export function route<C = unknown>(handler: Handler<C>): Handler<C> {
  return async (req, context) => {
    try {
      return await handler(req, context);
    } catch (error) {
      return errorResponse(error);
    }
  };
}
