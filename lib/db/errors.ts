interface DriverError {
  code?: string;
  /** postgres-js */
  constraint_name?: string;
  /** PGlite */
  constraint?: string;
  cause?: unknown;
}

/** Whether `error`, or an error it wraps (Drizzle wraps driver errors), violates the unique `constraint`. */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  for (let e = error as DriverError | undefined; e && typeof e === "object"; e = e.cause as DriverError | undefined) {
    if (e.code === "23505" && (e.constraint_name ?? e.constraint) === constraint) return true;
  }
  return false;
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
 * starting (SQLSTATE 57P01–57P03), a connection exception (class 08), or no connection slot
 * left (53300). Such a request may succeed when retried; nothing it began was committed.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error as DriverError | undefined; e && typeof e === "object"; e = e.cause as DriverError | undefined) {
    const code = e.code ?? "";
    if (CONNECTION_CODES.has(code) || /^(08...|57P0[123]|53300)$/.test(code)) return true;
  }
  return false;
}
