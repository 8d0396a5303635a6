import type { JoinPathFinder } from "@/lib/joingraph";
import type { JoinRelationship } from "@/lib/joingraph/contract";
import { wordsOf } from "./words";

// "Organizations that have authors who have written publications in the domain X": the question
// names the tables its rows pass through, in order. Joined by the cheapest tree, the domain could
// be reached from the authors directly (their own domains), which is another question; joined
// link by link in the order named — organization to author, author to publication, publication
// to domain — the SQL follows the question.

/** The tables of `schema` whose whole name the question says among `words` (unplaced words). */
export function namedTables(
  tables: Readonly<Record<string, { name: string; schema: string }>>,
  schema: string,
  words: readonly string[],
  skip: readonly string[],
): { key: string; words: string[] }[] {
  return Object.entries(tables)
    .filter(([key, t]) => t.schema === schema && !skip.includes(key))
    .map(([key, t]) => ({ key, words: wordsOf(t.name) }))
    .filter((t) => t.words.length > 0 && t.words.every((w) => words.includes(w)));
}

/** Where the question first names a table (its name's first word), for ordering the chain. */
export function mentionAt(questionWords: readonly string[], tableName: string): number {
  const at = wordsOf(tableName)
    .map((w) => questionWords.indexOf(w))
    .filter((i) => i >= 0);
  return at.length ? Math.min(...at) : Number.MAX_SAFE_INTEGER;
}

/**
 * Joins `ordered` link by link along each pair's shortest path: the tables in the order they
 * come in, and each relationship with the table it brings in. A string when two links would
 * meet again at a table already joined (the chain would have to use it twice).
 */
export function chainJoins(
  finder: JoinPathFinder,
  ordered: readonly string[],
): { tables: string[]; relationships: JoinRelationship[] } | string {
  const tables = [ordered[0]];
  const relationships: JoinRelationship[] = [];
  for (let i = 1; i < ordered.length; i++) {
    if (tables.includes(ordered[i])) continue;
    const path = finder.findShortestPath(tables[tables.length - 1], ordered[i]);
    if (!path) return `no join path to ${ordered[i]}`;
    let current = tables[tables.length - 1];
    for (const r of path) {
      const next = r.from_table === current ? r.to_table : r.from_table;
      if (tables.includes(next)) return `the tables named do not join in the order named (${next} twice)`;
      tables.push(next);
      relationships.push(r);
      current = next;
    }
  }
  return { tables, relationships };
}
