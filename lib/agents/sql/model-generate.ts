import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { Engine } from "@/lib/engine";
import { emit } from "@/lib/runs";
import {
  askAnalystModel,
  GeneratedSql,
  generationPrompt,
  selectedKeys,
  selectionPrompt,
  TableSelection,
} from "./model";
import type { PlannedSql } from "./planner";
import type { SourceSchema } from "./source";
import type { AnalystSource, ModelSql } from "./state";

/** What the model path produced: a statement to check, an honest decline, or no model to ask. */
export type ModelGeneration =
  | { kind: "sql"; plan: PlannedSql; model_sql: ModelSql }
  | { kind: "declined"; answer: string }
  | { kind: "unreachable"; reason: string };

/**
 * The model path's table selection (with the question's terms) and SQL generation, two typed
 * calls. Tables the graph does not have are dropped; output that does not hold, or a statement
 * the model says it cannot write, ends in a decline that says why. The statement is then checked
 * like any other (guard, validation) by the caller's graph.
 */
export async function generateWithModel(
  engine: Engine,
  config: LangGraphRunnableConfig,
  question: string,
  source: AnalystSource,
  schema: SourceSchema,
): Promise<ModelGeneration> {
  const { graph } = schema;
  emit(config, { kind: "step", message: `Asking ${engine.model} which tables the question needs` });
  const selection = await askAnalystModel(
    engine,
    config,
    "select",
    selectionPrompt(question, graph, source.schemas),
    TableSelection,
  );
  if (!selection.ok) return failed(selection, source, "table selection");
  const keys = selectedKeys(graph, source.schemas, selection.output.tables);
  if (keys.length === 0) {
    const named = selection.output.tables.map((t) => `"${t}"`).join(", ") || "none";
    return {
      kind: "declined",
      answer: `I could not answer this from ${source.name}: the model named no table the source has (it named ${named}), so no SQL was run.`,
    };
  }
  const values = await schema.values.catch(() => null);
  const context = generationPrompt(question, graph, keys, selection.output.terms, values, source.dialect);
  emit(config, { kind: "step", message: `Asking ${engine.model} to write the SQL` });
  const generated = await askAnalystModel(engine, config, "generate", context, GeneratedSql);
  if (!generated.ok) return failed(generated, source, "SQL");
  const out = generated.output;
  if (!out.sql?.trim()) {
    return {
      kind: "declined",
      answer: `I could not answer this from ${source.name}: ${out.reason?.trim() || "the model found no way to write it as SQL over these tables"}.`,
    };
  }
  const interpretation = out.interpretation.trim().replace(/[.\s]+$/, "");
  if (!interpretation || out.columns.length === 0) {
    return {
      kind: "declined",
      answer: `The model wrote SQL for this question without saying how it read the question or what the result's columns are, so I did not run it: an answer whose reading cannot be checked could be confidently wrong.`,
    };
  }
  const plan: PlannedSql = {
    sql: out.sql.trim(),
    schema: graph.tables[keys[0]].schema,
    tables: keys,
    labelColumns: [],
    valueColumn: null,
    readings: selection.output.terms.map((t) => `"${t.term}" → ${t.meaning}`),
    // The model reads a follow-up with the conversation itself; no value is marked for replacing.
    valueMentions: [],
    interpretation,
  };
  return { kind: "sql", plan, model_sql: { columns: out.columns, interpretation, context } };
}

function failed(
  asked: { kind: "unusable" | "unreachable"; reason: string; model: string },
  source: AnalystSource,
  what: string,
): ModelGeneration {
  if (asked.kind === "unreachable") return { kind: "unreachable", reason: asked.reason };
  return {
    kind: "declined",
    answer: `I could not answer this from ${source.name}: the model's ${what} could not be used (${asked.reason}), so no SQL was run.`,
  };
}
