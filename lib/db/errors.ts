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
