import { intentOf } from "./intent";
import { planSql } from "./planner";
import { plannerContextWith, type SourceSchema } from "./source";
import type { AnalystSource } from "./state";
import type { ValueIndex } from "./values";
import { wordsOf } from "./words";

// A declined question's way forward: questions about the same tables that the offline analyst
// does answer, written from the source's join graph (its tables, foreign keys, number columns)
// and its sampled values, and each planned before it is offered, so a button never leads to
// another decline. The tables the question's own words name come first.

const NUMERIC = /int|numeric|decimal|real|double|float|money/i;
/** Offered at most; the first that plan win. */
const MAX_OFFERED = 3;
/** Candidates planned at most (each is a full plan, so the bound keeps a decline quick). */
const MAX_TRIED = 24;

const spoken = (identifier: string) =>
  identifier
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replaceAll("_", " ")
    .toLowerCase()
    .trim();

const isKey = (column: string, primaryKey: readonly string[]) =>
  primaryKey.includes(column) || /(?:_id|Id|_key)$/.test(column) || column.toLowerCase() === "id";

/** The source's tables, those sharing most words with the question first (ties: the bigger table). */
function rankedTables(question: string, schema: SourceSchema, source: AnalystSource): string[] {
  const asked = new Set(wordsOf(question));
  return Object.entries(schema.graph.tables)
    .filter(([, t]) => source.schemas.includes(t.schema))
    .map(([key, t]) => {
      const names = [...wordsOf(t.name), ...t.columns.flatMap((c) => wordsOf(c.name))];
      const own = wordsOf(t.name).filter((w) => asked.has(w)).length;
      const any = new Set(names.filter((w) => asked.has(w))).size;
      return { key, score: own * 3 + any, rows: t.row_estimate ?? 0 };
    })
    .sort((a, b) => b.score - a.score || b.rows - a.rows || a.key.localeCompare(b.key))
    .map((t) => t.key);
}

/** Questions about one table the offline analyst's shapes cover, most specific first. */
function candidatesFor(key: string, schema: SourceSchema, values: ValueIndex | null): string[] {
  const { graph } = schema;
  const table = graph.tables[key];
  const name = spoken(table.name);
  const out: string[] = [];
  if (values) {
    for (const hits of values.byValue.values()) {
      const hit = hits.find((h) => h.table === key);
      // A value only one column holds, short enough to read as a value.
      if (hit && hits.length === 1 && hit.value.length <= 24 && /^[\p{L}][\p{L}\p{N} .'-]*$/u.test(hit.value)) {
        out.push(`List ${name} whose ${spoken(hit.column)} is ${hit.value}`);
        break;
      }
    }
  }
  for (const r of graph.relationships) {
    if (r.from_table !== key || r.to_table === key) continue;
    out.push(`How many ${name} are there per ${spoken(graph.tables[r.to_table].name)}?`);
    break;
  }
  const measure = table.columns.find((c) => NUMERIC.test(c.data_type) && !isKey(c.name, table.primary_key));
  if (measure) out.push(`What is the average ${spoken(measure.name)} of ${name}?`);
  out.push(`How many ${name} are there?`);
  return out;
}

/**
 * Up to three questions the source answers, near the declined one. Each candidate is read and
 * planned exactly as a typed question would be; only those that plan are offered.
 */
export function answerablePhrasings(
  question: string,
  schema: SourceSchema,
  source: AnalystSource,
  values: ValueIndex | null,
): string[] {
  const ctx = plannerContextWith(source, schema, values);
  const offered: string[] = [];
  let tried = 0;
  for (const key of rankedTables(question, schema, source)) {
    for (const candidate of candidatesFor(key, schema, values)) {
      if (offered.length >= MAX_OFFERED || tried >= MAX_TRIED) return offered;
      tried += 1;
      if (offered.includes(candidate)) continue;
      const intent = intentOf(candidate);
      if (intent && planSql(intent, ctx, candidate).ok) {
        offered.push(candidate);
        // One phrasing per table, so the offer spans what the question may have meant.
        break;
      }
    }
  }
  return offered;
}
