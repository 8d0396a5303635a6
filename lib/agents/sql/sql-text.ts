import type { QuestionIntent } from "./intent";

// Small pieces every SQL writer of the planner shares: identifiers quoted for the source's
// dialect, and the bare intent a shape of its own (a ratio, a duration, a clock time) hands to
// the word accounting, which needs an intent to know which words the reader already took.

/** Quotes an identifier for the dialect: backticks for MySQL, double quotes for PostgreSQL. */
export function identifierQuote(dialect: "postgres" | "mysql"): (name: string) => string {
  return dialect === "mysql"
    ? (name) => `\`${name.replaceAll("`", "``")}\``
    : (name) => `"${name.replaceAll('"', '""')}"`;
}

/** An intent with nothing but a shape, a subject and a group: the words it takes are its own. */
export function bareIntent(
  shape: QuestionIntent["shape"],
  subject: string,
  groupBy: string | null = null,
): QuestionIntent {
  return { shape, subject, groupBy, measure: null, limit: null, descending: true, year: null, conditions: [] };
}
