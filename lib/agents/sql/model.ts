import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { z } from "zod";
import type { ChatAgentProfile } from "@/lib/chat";
import { createEngineWithSelection, type Engine } from "@/lib/engine";
import type { JoinGraph } from "@/lib/joingraph/contract";
import { emit } from "@/lib/runs";
import type { ValueIndex } from "./values";

// The Data Analyst's model path (the SQL design's model-driven agent): when the deployment or the
// agent names a model, table selection with term extraction, SQL generation and correction ask it
// through the engine seam for typed output (zod schemas), with the join graph, the registries'
// column descriptions and value samples as context. What it writes is only a proposal: the same
// guard, validation and read-only execution decide what runs. Without a model the offline planner
// is the path.

/** The engine of the agent's model, or null on the offline path (or a provider without credentials). */
export function analystModel(agent: Pick<ChatAgentProfile, "model" | "temperature"> | null): Engine | null {
  try {
    const { engine } = createEngineWithSelection({
      agent: { model: agent?.model ?? null, temperature: agent?.temperature ?? null },
    });
    return engine.generateObject ? engine : null;
  } catch {
    return null;
  }
}

/** Step 1: the tables the question needs and the business terms it uses, with what each means. */
export const TableSelection = z.object({
  tables: z.array(z.string()).describe("schema.table keys from the list, the main table first"),
  terms: z
    .array(z.object({ term: z.string(), meaning: z.string() }))
    .describe("each content word or phrase of the question and the table, column or value it maps to"),
});
export type TableSelection = z.infer<typeof TableSelection>;

/** Step 2 (and each correction): one SELECT, the columns it returns, and how the question was read. */
export const GeneratedSql = z.object({
  /** Null when the data cannot answer the question; then `reason` says why. */
  sql: z.string().nullable(),
  columns: z.array(z.string()).describe("the result's column names, in order, exactly as the SELECT names them"),
  interpretation: z
    .string()
    .describe('the question as the SQL answers it, in one plain sentence ("Counting tracks whose genre is Rock")'),
  reason: z.string().nullable().describe("why the question cannot be answered from these tables, when sql is null"),
});
export type GeneratedSql = z.infer<typeof GeneratedSql>;

/** How a model call ended: its output, output that could not be used, or no answer at all. */
export type Asked<T> =
  | { ok: true; output: T }
  | { ok: false; kind: "unusable" | "unreachable"; reason: string; model: string };

/** The orchestrator's choice (the design's `next_step`) when the offline reading is not sure. */
export const RouteChoice = z.object({
  route: z.enum(["sql", "rag", "general"]),
  reason: z.string().describe("one short sentence: why this route"),
});
export type RouteChoice = z.infer<typeof RouteChoice>;

/** The general agent's reply to a question that is neither about the data nor about using Vigil. */
export const GeneralAnswer = z.object({
  answer: z.string().describe("a short, plain answer; never invent figures about the user's data"),
});
export type GeneralAnswer = z.infer<typeof GeneralAnswer>;

const ROUTE_RULES = `You are the orchestrator of a data analyst. Decide where the question goes: "sql" when it asks about the data in the tables listed (counts, lists, amounts, rankings, trends, anything the rows could answer), "rag" when it asks how to use the product Vigil (its screens, API keys, data sources, settings, reviews), "general" for anything else. Answer with the route and one short reason.`;

const GENERAL_RULES = `You are the general agent of a data analyst in the product Vigil. Answer the question briefly and plainly. You cannot see the user's data here: never state figures about it; for questions about the data, say that asking about the tables (for example "How many orders per year?") gets an answer from the data.`;

const SYSTEM_RULES = `You are the SQL agent of a data analyst. Write exactly one read-only SELECT (no other statement, no semicolons between statements) over the tables given, naming tables as schema.table. Use only the tables, columns and joins listed. Every content word of the question must be accounted for by a table, a column, a value filter, an operator or a date; if one cannot be, do not guess: return sql null and say which words in reason.`;

/** Asks the model for one step; every call is an `llm_call` trace event with its outcome. */
export async function askAnalystModel<T>(
  engine: Engine,
  config: LangGraphRunnableConfig,
  step: "route" | "general" | "select" | "generate" | "correct",
  prompt: string,
  schema: z.ZodType<T>,
): Promise<Asked<T>> {
  const started = Date.now();
  const trace = (outcome: string, extra: Record<string, unknown> = {}) =>
    emit(config, {
      kind: "trace",
      eventType: "llm_call",
      durationMs: Date.now() - started,
      payload: { purpose: `sql_${step}`, engine: engine.name, model: engine.model, outcome, ...extra },
    });
  if (!engine.generateObject) return { ok: false, kind: "unreachable", reason: "no model", model: engine.model };
  try {
    const result = await engine.generateObject({
      system: `Analyst step: ${step}.\n${step === "route" ? ROUTE_RULES : step === "general" ? GENERAL_RULES : SYSTEM_RULES}`,
      prompt,
      schema,
      temperature: 0,
      signal: config.signal,
    });
    trace("ok", result.usage ? { tokensIn: result.usage.inputTokens, tokensOut: result.usage.outputTokens } : {});
    return { ok: true, output: result.output };
  } catch (error) {
    if (config.signal?.aborted) throw error;
    const kind = unreachable(error) ? "unreachable" : "unusable";
    const reason = reasonOf(error);
    trace("failed", { kind, error: reason });
    return { ok: false, kind, reason, model: engine.model };
  }
}

/**
 * A call that got no answer from the model (connection refused, a timeout, a server error) as
 * against one whose answer did not hold (not JSON, not the schema): the first falls back to the
 * offline planner, the second is declined with its reason.
 */
function unreachable(error: unknown): boolean {
  const chain: unknown[] = [];
  for (let e: unknown = error; e && chain.length < 6; e = (e as { cause?: unknown }).cause) chain.push(e);
  return chain.some((e) => {
    const name = (e as { name?: string }).name ?? "";
    const code = (e as { code?: string }).code ?? "";
    const status = (e as { statusCode?: number }).statusCode;
    const message = e instanceof Error ? e.message : String(e);
    return (
      /ECONNREFUSED|ENOTFOUND|ETIMEDOUT|ECONNRESET|EAI_AGAIN/.test(code) ||
      /fetch failed|ECONNREFUSED|Cannot connect|timed? ?out/i.test(message) ||
      name === "AI_RetryError" ||
      (typeof status === "number" && status >= 500)
    );
  });
}

function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s+/g, " ").slice(0, 300);
}

/** At most this many table names in the routing prompt: enough to say what the source is about. */
const MAX_TABLES_IN_ROUTING = 60;

/** The routing step's material: the question and the names of the source's tables. */
export function routingPrompt(question: string, tables: readonly string[] | null): string {
  const listed = tables?.slice(0, MAX_TABLES_IN_ROUTING) ?? [];
  return `Question: ${question}\n\nTables of the data source: ${listed.length ? listed.join(", ") : "(none could be read)"}`;
}

/** At most this many tables in the selection prompt (the design's SQL_MAX_TABLES_IN_SELECTION_PROMPT). */
const MAX_TABLES_IN_SELECTION = 120;
/** At most this many sampled values per column in a prompt. */
const VALUES_PER_COLUMN = 8;

const qualified = (graph: JoinGraph, key: string) => `${graph.tables[key].schema}.${graph.tables[key].name}`;

/**
 * The graph keys of the tables the model selected (it writes `schema.table`; a bare key is taken
 * too), in its order; names the graph does not have are left out.
 */
export function selectedKeys(graph: JoinGraph, schemas: readonly string[], named: readonly string[]): string[] {
  const byName = new Map<string, string>();
  for (const [key, t] of Object.entries(graph.tables)) {
    if (!schemas.includes(t.schema)) continue;
    byName.set(`${t.schema}.${t.name}`.toLowerCase(), key);
    if (!byName.has(key.toLowerCase())) byName.set(key.toLowerCase(), key);
  }
  const keys = named.map((n) => byName.get(n.replace(/["`]/g, "").trim().toLowerCase())).filter((k) => k !== undefined);
  return [...new Set(keys)];
}

/** The selection step's material: every table with its description and column names. */
export function selectionPrompt(question: string, graph: JoinGraph, schemas: readonly string[]): string {
  const lines = Object.entries(graph.tables)
    .filter(([, t]) => schemas.includes(t.schema))
    .slice(0, MAX_TABLES_IN_SELECTION)
    .map(([, t]) => {
      const about = t.description ?? t.comment;
      return `- ${t.schema}.${t.name}${about ? ` — ${about}` : ""}: ${t.columns.map((c) => c.name).join(", ")}`;
    });
  return `Question: ${question}\n\nTables:\n${lines.join("\n")}`;
}

/**
 * The generation step's material: the selected tables with every column's type and description,
 * the joins between them from the join graph, and sampled values of their text columns (so
 * "Rock" is known to be a genre name).
 */
export function generationPrompt(
  question: string,
  graph: JoinGraph,
  tables: readonly string[],
  terms: TableSelection["terms"],
  values: ValueIndex | null,
  dialect: "postgres" | "mysql",
): string {
  const chosen = new Set(tables);
  const samples = new Map<string, string[]>();
  if (values) {
    for (const hits of values.byValue.values()) {
      for (const hit of hits) {
        if (!chosen.has(hit.table)) continue;
        const key = `${hit.table}.${hit.column}`;
        const list = samples.get(key) ?? [];
        if (list.length < VALUES_PER_COLUMN && !list.includes(hit.value)) list.push(hit.value);
        samples.set(key, list);
      }
    }
  }
  const blocks = tables.map((key) => {
    const t = graph.tables[key];
    const columns = t.columns.map((c) => {
      const seen = samples.get(`${key}.${c.name}`);
      return `  - ${c.name} ${c.data_type}${c.comment ? ` — ${c.comment}` : ""}${seen?.length ? ` (values such as ${seen.map((v) => JSON.stringify(v)).join(", ")})` : ""}`;
    });
    return `${qualified(graph, key)}${t.description ? ` — ${t.description}` : ""}\n${columns.join("\n")}`;
  });
  const joins = graph.relationships
    .filter((r) => chosen.has(r.from_table) && chosen.has(r.to_table))
    .map(
      (r) =>
        `- ${r.column_pairs.map((p) => `${qualified(graph, r.from_table)}.${p.from_column} = ${qualified(graph, r.to_table)}.${p.to_column}`).join(" AND ")}`,
    );
  const meaning = terms.map((t) => `- "${t.term}": ${t.meaning}`);
  return [
    `Question: ${question}`,
    `SQL dialect: ${dialect === "mysql" ? "MySQL" : "PostgreSQL"}`,
    `Tables:\n${blocks.join("\n")}`,
    `Joins:\n${joins.join("\n") || "- none between these tables"}`,
    meaning.length ? `Terms:\n${meaning.join("\n")}` : "",
  ]
    .filter(Boolean)
    .join("\n\n");
}

/** The correction step's material: what was wrong with the statement, and the same context. */
export function correctionPrompt(context: string, sql: string, error: string, history: readonly string[]): string {
  return [
    context,
    `The SQL below did not pass:\n${sql}`,
    `What was wrong: ${error}`,
    history.length ? `Earlier attempts that also failed:\n${history.map((h) => `- ${h}`).join("\n")}` : "",
    "Write a corrected SELECT. Check the table, the join direction and the columns, not only the names.",
  ]
    .filter(Boolean)
    .join("\n\n");
}

/**
 * Whether a result has the columns the model said its SQL returns (names compared without case
 * or quoting): a statement that returns something else answers another question.
 */
export function shapeProblem(said: readonly string[], returned: readonly string[]): string | null {
  const norm = (c: string) => c.replace(/["`]/g, "").toLowerCase();
  const a = said.map(norm);
  const b = returned.map(norm);
  if (a.length === b.length && a.every((c, i) => c === b[i])) return null;
  return `the query returned the columns ${JSON.stringify(returned)}, but the model said it returns ${JSON.stringify(said)}`;
}
