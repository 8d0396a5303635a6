// Asking the Data Analyst one question through POST /api/chat and grading the answer against
// the reference: correct (the rows match, compare.ts), declined (no SQL result: the analyst
// said it could not answer), wrong (a result that does not match).

import { performance } from "node:perf_hooks";
import type { UIMessageChunk } from "ai";
import type { SqlResultPart } from "@/lib/runs/contract";
import { postChat, textOf } from "../../chat/support";
import { matchesReference } from "./compare";
import { expandReference } from "./reference";

export type Verdict = "correct" | "declined" | "wrong";

export interface EvalCase {
  /** The set's grouping: the sql-eval database, or the warehouse schema. */
  group: string;
  category: string;
  question: string;
  query: string;
  ordered: boolean;
  /** Earlier turns of the same conversation, asked first and not graded. */
  before?: string[];
}

export interface Graded {
  case: EvalCase;
  verdict: Verdict;
  /** Request to stream end of the graded turn. */
  seconds: number;
  sql: string | null;
  /** What the analyst said when it declined, or the HTTP error. */
  said: string;
}

/** Runs one reference statement and returns its rows as arrays. */
export type RunSql = (sql: string) => Promise<unknown[][]>;

const sqlPart = (chunks: UIMessageChunk[]): SqlResultPart | undefined =>
  (chunks.find((c) => c.type === "data-sql") as { data: SqlResultPart } | undefined)?.data;

/** The reference's accepted results, computed once per case. */
export async function referenceResults(item: EvalCase, run: RunSql): Promise<unknown[][][]> {
  return Promise.all(expandReference(item.query).map((statement) => run(statement)));
}

export async function askAndGrade(
  auth: Record<string, string>,
  item: EvalCase,
  references: unknown[][][],
): Promise<Graded> {
  let sessionId: string | undefined;
  for (const message of item.before ?? []) {
    const turn = await postChat(auth, { agentId: "data-analyst", message, ...(sessionId ? { sessionId } : {}) });
    sessionId = turn.headers.get("x-vigil-session-id") ?? sessionId;
  }
  const started = performance.now();
  const turn = await postChat(auth, {
    agentId: "data-analyst",
    message: item.question,
    ...(sessionId ? { sessionId } : {}),
  });
  const seconds = (performance.now() - started) / 1000;
  if (turn.status !== 200) {
    return {
      case: item,
      verdict: "declined",
      seconds,
      sql: null,
      said: `HTTP ${turn.status} ${JSON.stringify(turn.body)}`,
    };
  }
  const part = sqlPart(turn.chunks);
  const said = textOf(turn.chunks);
  if (!part) return { case: item, verdict: "declined", seconds, sql: null, said };
  // A truncated result is not the whole answer; it can only match a reference as long.
  const correct = references.some((rows) => matchesReference({ rows }, { rows: part.rows }, item.ordered));
  return { case: item, verdict: correct ? "correct" : "wrong", seconds, sql: part.sql, said };
}

/** Runs the cases with at most `concurrency` questions in flight. */
export async function gradeAll(
  auth: Record<string, string>,
  cases: EvalCase[],
  run: RunSql,
  concurrency: number,
): Promise<Graded[]> {
  const out: Graded[] = new Array(cases.length);
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const i = next++;
      out[i] = await askAndGrade(auth, cases[i], await referenceResults(cases[i], run));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  return out;
}
