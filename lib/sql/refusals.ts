/**
 * Why the guard refused a statement. The codes are stable: the correction agent, the run trace
 * and tests read them; the message is for a person (and the correction prompt) and never holds
 * a stack or the parser's internals.
 */
export const SQL_REFUSAL_CODES = [
  "sql_empty",
  "sql_too_long",
  "sql_parse_error",
  "sql_multiple_statements",
  "sql_not_select",
  "sql_select_into",
  "sql_locking_read",
  "sql_forbidden_function",
  "sql_forbidden_variable",
  "sql_executable_comment",
  "sql_table_not_allowed",
  "sql_encrypted_column",
  "sql_unsupported",
] as const;

export type SqlRefusalCode = (typeof SQL_REFUSAL_CODES)[number];

export interface SqlRefusal {
  code: SqlRefusalCode;
  message: string;
  /** The table, function or keyword the refusal is about, when there is one. */
  subject?: string;
}

/** Thrown inside the guard's passes and turned into the `{ok: false}` answer at its edge. */
export class SqlRefusalError extends Error {
  constructor(
    readonly code: SqlRefusalCode,
    message: string,
    readonly subject?: string,
  ) {
    super(message);
    this.name = "SqlRefusalError";
  }

  toRefusal(): SqlRefusal {
    return this.subject === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, subject: this.subject };
  }
}

export function refuse(code: SqlRefusalCode, message: string, subject?: string): never {
  throw new SqlRefusalError(code, message, subject);
}
