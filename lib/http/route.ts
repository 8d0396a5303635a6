import { randomUUID } from "node:crypto";
import { isDatabaseBusy, isDatabaseUnavailable } from "@/lib/db";
import { DomainError, type ErrorKind, NotFoundError } from "@/lib/errors";
import { logger, withLogContext } from "@/lib/log";
import { assertSameSiteMutation } from "./csrf";
import { hardenForHttps } from "./transport-security";
import { refuseUnstorableUrl } from "./url-text";

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
    return json(body, { status: statusOf(error), headers: retryAfterOf(error) });
  }
  if (error instanceof NotFoundError) {
    return json({ status: "not_found", message: error.message, ...error.extra }, { status: 404 });
  }
  if (isDatabaseUnavailable(error)) {
    // Neither the caller's fault nor a bug: the database could not be reached; retried, it may work.
    logger().warn(`database unavailable: ${(error as Error).message}`);
    return json(
      {
        status: "error",
        code: "DATABASE_UNAVAILABLE",
        message: "The database is unavailable right now; try again shortly.",
      },
      { status: 503, headers: { "retry-after": "5" } },
    );
  }
  if (isDatabaseBusy(error)) {
    // A statement stopped by the server's statement or lock timeout: the database is up but
    // busy (a long query, a row locked elsewhere); nothing was committed and a retry may work.
    logger().warn(`database busy: ${(error as Error).message}`);
    return json(
      {
        status: "error",
        code: "DATABASE_BUSY",
        message: "The database took too long to answer; try again shortly.",
      },
      { status: 503, headers: { "retry-after": "2" } },
    );
  }
  // Anything else is our fault: log it in full, answer without internals.
  logger().error({ err: error }, "unhandled error");
  return json({ status: "error", code: "INTERNAL", message: "Something went wrong on our side." }, { status: 500 });
}

/** A refusal that names when to try again (`details.retry_after`, seconds) says so in `Retry-After` too. */
function retryAfterOf(error: DomainError): HeadersInit | undefined {
  const seconds = (error.details as { retry_after?: unknown } | undefined)?.retry_after;
  return typeof seconds === "number" ? { "retry-after": String(seconds) } : undefined;
}

/**
 * Wraps a route handler so every thrown error leaves in the documented shape, and so neither a
 * cookie-borne mutation from another site (assertSameSiteMutation) nor a path or query with text
 * no column can store (refuseUnstorableUrl) reaches it. Served over HTTPS, every answer carries
 * HSTS and every cookie it sets is `Secure` (hardenForHttps).
 */
export function route<C = unknown>(handler: Handler<C>): Handler<C> {
  return async (req, context) => {
    const requestId = requestIdOf(req);
    // Every line logged while the request is handled names it (and its tenant, once the session is known).
    return withLogContext({ requestId }, async () => {
      let response: Response;
      try {
        assertSameSiteMutation(req);
        await refuseUnstorableUrl(req, context);
        response = await handler(req, context);
      } catch (error) {
        response = errorResponse(error);
      }
      response = hardenForHttps(req, response);
      // Immutable headers (a redirect's) keep theirs; the id only helps find the request's log lines.
      try {
        response.headers.set("x-request-id", requestId);
      } catch {}
      return response;
    });
  };
}

/** A proxy's `X-Request-Id` when it looks like one (so the logs line up with its own), else a new one. */
function requestIdOf(req: Request): string {
  const given = req.headers.get("x-request-id");
  return given && /^[\w.:-]{1,128}$/.test(given) ? given : randomUUID();
}
