import { END, START, StateGraph } from "@langchain/langgraph";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import type { RunnableGraph, Workflow } from "@/lib/runs";
import { AskExpertInput } from "../ask-expert/state";
import { checkSql } from "./nodes/check";
import { correctSql } from "./nodes/correct";
import { executeSql } from "./nodes/execute";
import { finalize } from "./nodes/finalize";
import { generateSql } from "./nodes/generate";
import { answerFromGuide, answerGeneral } from "./nodes/other-routes";
import { route } from "./nodes/route";
import { saveAnswer } from "./nodes/save";
import { SqlAnalystState, type SqlAnalystStateType } from "./state";

const afterCheck = (s: SqlAnalystStateType) => (s.validated ? "execute_sql" : "correct_sql");
const afterCorrect = (s: SqlAnalystStateType) => (s.final_answer ? "finalize" : "check_sql");
// An empty result is planned once more; an error is corrected.
const afterExecute = (s: SqlAnalystStateType) => {
  if (s.last_sql_error) return "correct_sql";
  if (s.result && s.result.rows.length === 0 && s.retries === 0) return "regenerate";
  return "finalize";
};

/**
 * The Data Analyst's turn (the SQL agent design): the orchestrator classifies the question;
 * SQL goes through generation, the secure-view rewrite and pre-validation, execution, up to
 * three corrections and one regeneration on an empty result, then finalize; RAG and general
 * questions are answered on their own routes. Memory is the chat thread's checkpoints.
 */
export function buildSqlAnalyst(checkpointer: BaseCheckpointSaver): RunnableGraph {
  return new StateGraph(SqlAnalystState)
    .addNode("classify", route)
    .addNode("generate_sql", generateSql)
    .addNode("regenerate", async (s: SqlAnalystStateType) => ({
      retries: s.retries + 1,
      intent: s.intent ? { ...s.intent, relaxed: true } : null,
    }))
    .addNode("check_sql", checkSql)
    .addNode("correct_sql", correctSql)
    .addNode("execute_sql", executeSql)
    .addNode("rag", answerFromGuide)
    .addNode("general", answerGeneral)
    .addNode("finalize", finalize)
    .addNode("save_message", saveAnswer)
    .addEdge(START, "classify")
    .addConditionalEdges("classify", (s) => (s.next_step === "sql" ? "generate_sql" : (s.next_step ?? "general")), [
      "generate_sql",
      "rag",
      "general",
    ])
    .addConditionalEdges("generate_sql", (s) => (s.final_answer || !s.sql ? "finalize" : "check_sql"), [
      "finalize",
      "check_sql",
    ])
    .addEdge("regenerate", "generate_sql")
    .addConditionalEdges("check_sql", afterCheck, ["execute_sql", "correct_sql"])
    .addConditionalEdges("correct_sql", afterCorrect, ["finalize", "check_sql"])
    .addConditionalEdges("execute_sql", afterExecute, ["correct_sql", "regenerate", "finalize"])
    .addEdge("rag", "finalize")
    .addEdge("general", "finalize")
    .addEdge("finalize", "save_message")
    .addEdge("save_message", END)
    .compile({ checkpointer }) as unknown as RunnableGraph;
}

export const sqlAnalyst: Workflow = {
  name: "sql-analyst",
  // A chat turn starts every expert's workflow with the same input.
  input: AskExpertInput,
  privateToStarter: true,
  capped: true,
  answersChat: true,
  build: buildSqlAnalyst,
  publicState(values) {
    const v = (values ?? {}) as Partial<SqlAnalystStateType>;
    return {
      sessionId: v.session?.sessionId ?? null,
      question: v.message ?? null,
      next_step: v.next_step ?? null,
      sql: v.sql ?? null,
      column_names: v.result?.columns ?? null,
      tables: v.tables ?? [],
      retries: v.retries ?? 0,
      sql_correction_attempts: v.sql_correction_attempts ?? 0,
      last_sql_error: v.last_sql_error ?? null,
      correction_history: v.correction_history ?? [],
      validation_errors: v.validation_errors ?? [],
      result: v.result ?? null,
      final_answer: v.final_answer ?? null,
      messageId: v.messageId ?? null,
    };
  },
  finishMetadata(values) {
    const v = (values ?? {}) as Partial<SqlAnalystStateType>;
    return { sessionId: v.session?.sessionId ?? null, engine: "offline", next_step: v.next_step ?? null };
  },
};
