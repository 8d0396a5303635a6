import { END, type LangGraphRunnableConfig, START, StateGraph } from "@langchain/langgraph";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import type { RunnableGraph, Workflow } from "@/lib/runs";
import { AskExpertInput } from "../ask-expert/state";
import { checkSql } from "./nodes/check";
import { correctSql } from "./nodes/correct";
import { executeSql } from "./nodes/execute";
import { finalize } from "./nodes/finalize";
import { generateSql } from "./nodes/generate";
import { answerFromGuide, answerGeneral } from "./nodes/other-routes";
import { pickSource } from "./nodes/pick-source";
import { route } from "./nodes/route";
import { saveAnswer } from "./nodes/save";
import { analystSettings } from "./settings";
import { SqlAnalystState, type SqlAnalystStateType } from "./state";

const afterCheck = (s: SqlAnalystStateType) => {
  if (s.final_answer) return "finalize";
  return s.validated ? "execute_sql" : "correct_sql";
};
const afterCorrect = (s: SqlAnalystStateType) => (s.final_answer ? "finalize" : "check_sql");
// An empty result is planned once more; an error is corrected.
const afterExecute = (s: SqlAnalystStateType) => {
  if (s.final_answer) return "finalize";
  if (s.last_sql_error) return "correct_sql";
  // Only the offline planner reads text filters more loosely the second time; the model would
  // be asked the same question again.
  if (s.result && s.result.rows.length === 0 && s.retries === 0 && !s.model_sql) return "regenerate";
  return "finalize";
};

type LoopNode = (
  s: SqlAnalystStateType,
  config: LangGraphRunnableConfig,
) => Promise<Partial<SqlAnalystStateType> | Record<string, unknown>>;

/**
 * One step of the SQL loop, counted: past `SQL_AGENT_MAX_ITERATIONS` the turn ends with an
 * answer saying so instead of running the step (the design's bound on the agent's iterations).
 */
const counted =
  (node: LoopNode): LoopNode =>
  async (s, config) => {
    const max = analystSettings().maxIterations;
    const iterations = (s.iterations ?? 0) + 1;
    if (iterations > max) {
      return {
        iterations,
        final_answer: `I stopped working on this question after ${max} steps of checking and correcting its SQL without an answer I could trust. Try naming the table and the column as the data has them.`,
      };
    }
    return { ...(await node(s, config)), iterations };
  };

/**
 * The Data Analyst's turn (the SQL agent design): the orchestrator classifies the question;
 * SQL picks the consultation's source (and ends at once when it is unreachable), goes through generation, the secure-view rewrite and pre-validation, execution, up to
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
    .addNode("pick_source", pickSource)
    .addNode("check_sql", counted(checkSql))
    .addNode("correct_sql", counted(correctSql))
    .addNode("execute_sql", counted(executeSql))
    .addNode("rag", answerFromGuide)
    .addNode("general", answerGeneral)
    .addNode("finalize", finalize)
    .addNode("save_message", saveAnswer)
    .addEdge(START, "classify")
    .addConditionalEdges("classify", (s) => (s.next_step === "sql" ? "pick_source" : (s.next_step ?? "general")), [
      "pick_source",
      "rag",
      "general",
    ])
    .addConditionalEdges("pick_source", (s) => (s.final_answer ? "finalize" : "generate_sql"), [
      "finalize",
      "generate_sql",
    ])
    .addConditionalEdges("generate_sql", (s) => (s.final_answer || !s.sql ? "finalize" : "check_sql"), [
      "finalize",
      "check_sql",
    ])
    .addEdge("regenerate", "generate_sql")
    .addConditionalEdges("check_sql", afterCheck, ["execute_sql", "correct_sql", "finalize"])
    .addConditionalEdges("correct_sql", afterCorrect, ["finalize", "check_sql"])
    .addConditionalEdges("execute_sql", afterExecute, ["correct_sql", "regenerate", "finalize"])
    .addEdge("rag", "finalize")
    .addEdge("general", "finalize")
    .addEdge("finalize", "save_message")
    .addEdge("save_message", END)
    .compile({ checkpointer });
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
      engine: v.engine ?? null,
      interpretation: v.model_sql?.interpretation ?? v.plan?.interpretation ?? null,
      rephrasings: v.rephrasings ?? null,
      final_answer: v.final_answer ?? null,
      messageId: v.messageId ?? null,
    };
  },
  finishMetadata(values) {
    const v = (values ?? {}) as Partial<SqlAnalystStateType>;
    return { sessionId: v.session?.sessionId ?? null, engine: v.engine ?? "offline", next_step: v.next_step ?? null };
  },
};
