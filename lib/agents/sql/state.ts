import { Annotation } from "@langchain/langgraph";
import type { RephrasingsPart as Rephrasings, SqlResultPart } from "@/lib/runs/contract";
import { chatTurnChannels } from "../ask-expert/state";
import type { QuestionIntent } from "./intent";
import type { PlannedSql } from "./planner";

/** The thread remembers this many turns: enough for follow-ups, small enough to load each turn. */
const MEMORY_CAP = 40;

/** The design's orchestrator routes (`next_step`). */
export type AnalystRoute = "sql" | "rag" | "general";

/** One correction: what was wrong and what was tried instead (the design's `correction_history`). */
export interface CorrectionStep {
  attempt: number;
  error: string;
  sql: string;
  corrected: string | null;
}

/** What the model said of the statement it wrote. */
export interface ModelSql {
  columns: string[];
  interpretation: string;
  /** The generation prompt's schema context, for the correction step. */
  context: string;
}

/** A column validation did not find, and the one it suggests in its place. */
export interface ColumnFix {
  column: string;
  suggestion: string;
}

/** The source the question runs on, as the workflow needs it. */
export interface AnalystSource {
  id: string;
  name: string;
  dialect: "postgres" | "mysql";
  schemas: string[];
  rowLimit: number;
  /** The embedded warehouse answers in-process; only a network source can be unreachable. */
  kind?: "postgres" | "mysql" | "warehouse";
}

/**
 * One turn of the Data Analyst: the design's orchestrator `AgentState` (question, route, results,
 * final answer) and `SQLGraphState` (tables, sql, retries, correction attempts and history,
 * validation errors) under the design's names where a client sees them.
 */
export const SqlAnalystState = Annotation.Root({
  ...chatTurnChannels(MEMORY_CAP),
  /** The last question's reading: a follow-up such as "and in 1998?" changes it. */
  lastIntent: Annotation<QuestionIntent | null>(),
  /** The last answered question as it was read (a follow-up's change already put in). */
  lastQuestion: Annotation<string | null>(),
  /** The last answered question's words that were values in the data, as written ("Rock"). */
  lastValues: Annotation<string[] | null>(),
  /** This turn's question as it is read: the message, or a follow-up spelled out in full. */
  asked: Annotation<string | null>(),
  next_step: Annotation<AnalystRoute | null>(),
  intent: Annotation<QuestionIntent | null>(),
  source: Annotation<AnalystSource | null>(),
  plan: Annotation<PlannedSql | null>(),
  tables: Annotation<string[]>(),
  sql: Annotation<string | null>(),
  /** Steps taken in the check → correct → execute loop (bounded by `SQL_AGENT_MAX_ITERATIONS`). */
  iterations: Annotation<number>(),
  /** Regenerations after an empty result (the design's `retries`). */
  retries: Annotation<number>(),
  sql_correction_attempts: Annotation<number>(),
  last_sql_error: Annotation<string | null>(),
  correction_history: Annotation<CorrectionStep[]>(),
  validation_errors: Annotation<string[]>(),
  /** The columns validation named with a better one ("did you mean …"): what correction applies. */
  column_fixes: Annotation<ColumnFix[]>(),
  /** Set when the statement checked clean and may run. */
  validated: Annotation<boolean>(),
  result: Annotation<SqlResultPart | null>(),
  /**
   * The model path's statement as the model described it (what its result's columns are, how it
   * read the question, and the prompt context correction reuses); null on the offline path.
   */
  model_sql: Annotation<ModelSql | null>(),
  /** Who wrote the SQL: "offline" (the planner) or the model's id. */
  engine: Annotation<string | null>(),
  /** Said with the answer when the model could not be reached and the offline planner answered. */
  engine_note: Annotation<string | null>(),
  /** A declined question's rephrasings the source answers (the `data-rephrasings` part). */
  rephrasings: Annotation<Rephrasings | null>(),
  final_answer: Annotation<string | null>(),
  messageId: Annotation<string | null>(),
});
export type SqlAnalystStateType = typeof SqlAnalystState.State;
