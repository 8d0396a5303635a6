import { readFileSync } from "node:fs";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { SQL_EVAL_DIR, type SqlEvalDatabase } from "./databases";

/** One sql-eval question (questions.csv): the reference SQL may hold alternatives (reference.ts). */
export interface SqlEvalQuestion {
  question: string;
  query: string;
  db: SqlEvalDatabase;
  category: string;
  /** The dataset's hint for the question ("Filter airport codes using case-insensitive matches"). */
  instructions: string;
}

export function loadSqlEvalQuestions(): SqlEvalQuestion[] {
  const rows = parse(readFileSync(path.join(SQL_EVAL_DIR, "questions.csv"), "utf8"), {
    columns: true,
    skip_empty_lines: true,
  }) as Record<string, string>[];
  return rows.map((r) => ({
    question: r.question.trim(),
    query: r.query,
    db: r.db_name as SqlEvalDatabase,
    category: r.query_category,
    instructions: (r.instructions ?? "").trim(),
  }));
}
