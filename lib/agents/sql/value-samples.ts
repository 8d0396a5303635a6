import type { JoinGraph, JoinGraphTable } from "@/lib/joingraph/contract";
import { buildValueIndex, type ValueIndex } from "./values";

// Which values the index samples, and the statements that read them. Bounded: short text columns
// only, the most frequent values first, at most VALUES_PER_COLUMN per column and MAX_COLUMNS per
// source. Key columns are left out but for a table's own text key (a code such as "JFK"), and so
// are protected tables: a table read through a secure view keeps its protected fields out of the
// index as it keeps them out of answers.

export const VALUES_PER_COLUMN = 500;
export const MAX_COLUMNS = 400;
/** Longer values are descriptions and addresses, not names a question repeats. */
export const MAX_VALUE_LENGTH = 60;

const TEXTUAL = /char|text|string|enum|citext/i;

export interface SampledColumn {
  table: string;
  column: string;
  sql: string;
}

/** The statements that sample `graph`'s text columns in `schemas`, one per column. */
export function valueSampleStatements(
  graph: JoinGraph,
  schemas: readonly string[],
  dialect: "postgres" | "mysql",
  protectedTables: ReadonlySet<string>,
): SampledColumn[] {
  const quote =
    dialect === "mysql"
      ? (n: string) => `\`${n.replaceAll("`", "``")}\``
      : (n: string) => `"${n.replaceAll('"', '""')}"`;
  const length = dialect === "mysql" ? "char_length" : "length";
  const out: SampledColumn[] = [];
  for (const [key, table] of Object.entries(graph.tables)) {
    if (!schemas.includes(table.schema) || protectedTables.has(`${table.schema}.${table.name}`)) continue;
    for (const column of sampledColumns(table)) {
      const c = quote(column);
      out.push({
        table: key,
        column,
        sql: `select ${c} as v, count(*) as n from ${quote(table.schema)}.${quote(table.name)} where ${c} is not null and ${length}(${c}) between 2 and ${MAX_VALUE_LENGTH} group by ${c} order by count(*) desc, ${c} limit ${VALUES_PER_COLUMN}`,
      });
      if (out.length >= MAX_COLUMNS) return out;
    }
  }
  return out;
}

function sampledColumns(table: JoinGraphTable): string[] {
  // A text key of its own is a code people name ("JFK", "LAX"); a composite key's parts are not.
  const ownCode = table.primary_key.length === 1 ? table.primary_key[0] : null;
  return table.columns
    .filter((c) => TEXTUAL.test(c.data_type))
    .filter((c) => (c.name === ownCode || !table.primary_key.includes(c.name)) && !/_encrypted$/i.test(c.name))
    .map((c) => c.name);
}

/**
 * Reads every sampled column through `select` (the source's one-statement reader) and builds the
 * index. A column whose statement fails is left out: the index is a help, never a requirement.
 */
export async function sampleValueIndex(
  statements: readonly SampledColumn[],
  select: (sql: string) => Promise<readonly (readonly unknown[])[]>,
): Promise<ValueIndex> {
  const samples: { table: string; column: string; values: string[] }[] = [];
  for (const s of statements) {
    try {
      const rows = await select(s.sql);
      samples.push({ table: s.table, column: s.column, values: rows.map((r) => String(r[0])) });
    } catch {
      // The column could not be read (a permission, a type): answered without its values.
    }
  }
  return buildValueIndex(samples);
}
