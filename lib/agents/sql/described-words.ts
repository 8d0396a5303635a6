import type { JoinPathFinder } from "@/lib/joingraph";
import type { JoinGraph } from "@/lib/joingraph/contract";
import type { Comparison } from "./intent";
import { type Gloss, glossHolds, planDescriptions, relationVerbs, stemOf, unitWords } from "./relation-words";
import { normaliseValue, type ValueIndex } from "./values";
import { wordsOf } from "./words";

// The last pass of accounting over a draft: words left unplaced by names and values that the
// plan's own descriptions account for — a verb stating a relationship the plan joins through,
// the unit of a compared number, the name glossing a code in parentheses. What remains is
// unplaced, and the question is declined naming it.

interface Used {
  key: string;
  column: string | null;
}

export interface DescribedDraft {
  subject: string;
  group: { key: string; column: string | null } | null;
  measure: { key: string; column: string } | null;
  conditions: { choice: { key: string; column: string }; value: string; op?: Comparison; value2?: string }[];
  rank: { key: string; column: string } | null;
  glosses: readonly Gloss[];
  /** Other tables and columns the plan uses (returned columns, a negated table). */
  extra?: readonly Used[];
}

export function settleDescribedWords(
  ctx: { graph: JoinGraph; finder: JoinPathFinder; values?: ValueIndex },
  question: string,
  unplaced: readonly string[],
  d: DescribedDraft,
): string[] {
  if (!unplaced.length) return [...unplaced];
  const left = new Set(unplaced);
  // A gloss holds only beside a code the plan filters on.
  for (const g of d.glosses) {
    const code = d.conditions.find((c) => normaliseValue(c.value) === normaliseValue(g.code));
    if (
      code &&
      ctx.values &&
      glossHolds(g, { table: code.choice.key, column: code.choice.column }, ctx.graph, ctx.values)
    ) {
      for (const w of g.words) left.delete(w);
    }
  }
  const used: Used[] = [
    ...(d.group ? [d.group] : []),
    ...(d.measure ? [d.measure] : []),
    ...d.conditions.map((c) => c.choice),
    ...(d.rank ? [d.rank] : []),
    ...(d.extra ?? []),
  ];
  const descriptions = planDescriptions(ctx.graph, ctx.finder, d.subject, used);
  for (const w of relationVerbs(question, [...left], descriptions)) left.delete(w);
  const comment = (key: string, column: string) =>
    ctx.graph.tables[key]?.columns.find((c) => c.name === column)?.comment ?? "";
  const compared = d.conditions
    .filter((c) => c.op && c.op !== "=")
    .map((c) => ({
      value: c.value,
      value2: c.value2,
      description: `${c.choice.column} ${comment(c.choice.key, c.choice.column)}`,
    }));
  for (const w of unitWords(question, [...left], compared)) left.delete(w);
  return unplaced.filter((w) => left.has(w));
}

/**
 * The one column among `tables` whose description holds every one of `words` (by stem), when
 * no name carries them; null when none does or several do — a guess between two would answer
 * a question nobody asked.
 */
export function describedColumn(
  graph: JoinGraph,
  tables: readonly string[],
  words: readonly string[],
  accept: (dataType: string) => boolean,
): { key: string; column: string } | null {
  const wanted = [...new Set(words.map(stemOf))];
  if (wanted.length < 2) return null;
  const found: { key: string; column: string }[] = [];
  for (const key of tables) {
    for (const c of graph.tables[key]?.columns ?? []) {
      if (!c.comment || !accept(c.data_type)) continue;
      const said = new Set(
        c.comment
          .toLowerCase()
          .split(/[^a-z]+/)
          .filter(Boolean)
          .map(stemOf),
      );
      if (wanted.every((w) => said.has(w))) found.push({ key, column: c.name });
    }
  }
  return found.length === 1 ? found[0] : null;
}

/**
 * The one table of `schema` whose rows a column's description calls by `words` ("Unique
 * identifier for each meal served": a row of `food_service` is a meal), when no table is named
 * so; null when none or several are.
 */
export function describedTable(
  graph: JoinGraph,
  schema: string,
  words: readonly string[],
): { key: string; column: string } | null {
  if (words.length !== 1) return null;
  const found = new Map<string, string>();
  for (const [key, t] of Object.entries(graph.tables)) {
    if (t.schema !== schema) continue;
    for (const c of t.columns) {
      const m = /\b(?:identifier|id|code|number|key)\b[^.]*?\b(?:for|of)\s+(?:each|every)\s+([a-z]+)/i.exec(
        c.comment ?? "",
      );
      if (m && wordsOf(m[1])[0] === words[0] && !found.has(key)) found.set(key, c.name);
    }
  }
  const [only] = found;
  return found.size === 1 ? { key: only[0], column: only[1] } : null;
}
