export interface DriverError {
  code?: string;
  message?: string;
  /** postgres-js */
  constraint_name?: string;
  /** PGlite */
  constraint?: string;
  cause?: unknown;
}

/**
 * Whether `error`, or an error it wraps (Drizzle wraps driver errors in `cause`), passes `test`.
 * Every check below, and those of other folders, reads the chain this way.
 */
export function someCause(error: unknown, test: (e: DriverError) => boolean): boolean {
  for (let e = error as DriverError | undefined; e && typeof e === "object"; e = e.cause as DriverError | undefined) {
    if (test(e)) return true;
  }
  return false;
}

/** Whether `error`, or an error it wraps, violates the unique `constraint`. */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  return someCause(error, (e) => e.code === "23505" && (e.constraint_name ?? e.constraint) === constraint);
}

/** Driver codes of a connection that failed or went away (postgres-js names, Node socket codes). */
const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
]);

/**
 * Whether `error` (or one it wraps) says the database cannot be reached right now rather than
 * that a statement was wrong: a refused or lost connection, a server shutting down or still
 * starting (SQLSTATE 57P01–57P03), a session the server ended for idling (57P05, or 25P03
 * inside a transaction), a connection exception (class 08), or no connection slot left (53300). Such a request may succeed when retried; nothing it began was committed.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  return someCause(
    error,
    ({ code = "" }) => CONNECTION_CODES.has(code) || /^(08...|57P0[1235]|25P03|53300)$/.test(code),
  );
}

/**
 * Whether `error` (or one it wraps) is a statement the server stopped for taking too long: its
 * `statement_timeout` ran out (SQLSTATE 57014) or it waited past `lock_timeout` for a lock
 * (55P03). The database is up but busy (a long report, a lock held elsewhere); nothing the
 * statement began was committed, and the same request may succeed when retried.
 */
export function isDatabaseBusy(error: unknown): boolean {
  return someCause(error, (e) => e.code === "57014" || e.code === "55P03");
}
