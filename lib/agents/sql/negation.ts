import type { JoinPathFinder } from "@/lib/joingraph";
import type { JoinGraph } from "@/lib/joingraph/contract";

// "Authors not part of any organization", "customers with no orders": the subject's rows with no
// row of another table along the join graph's path to it, as NOT EXISTS over that path. A row
// whose key is empty joins nothing, so it counts as having none — as "not part of any" means.

export interface NegationWriter {
  id(name: string): string;
  table(key: string): string;
}

/** `not exists (…)` for rows of `subject` (aliased `outer`) with no `target` row; null without a path. */
export function notExistsSql(
  graph: JoinGraph,
  finder: JoinPathFinder,
  w: NegationWriter,
  subject: string,
  target: string,
  outer: string,
): string | null {
  const path = finder.findShortestPath(subject, target);
  if (!path?.length) return null;
  let current = subject;
  let currentAlias = outer;
  const from: string[] = [];
  let correlated = "";
  path.forEach((r, i) => {
    const forward = r.from_table === current;
    const next = forward ? r.to_table : r.from_table;
    const alias = `n${i + 1}`;
    const [fromAlias, toAlias] = forward ? [currentAlias, alias] : [alias, currentAlias];
    const on = r.column_pairs
      .map((p) => `${fromAlias}.${w.id(p.from_column)} = ${toAlias}.${w.id(p.to_column)}`)
      .join(" and ");
    if (i === 0) {
      from.push(`${w.table(next)} ${alias}`);
      correlated = on;
    } else from.push(`join ${w.table(next)} ${alias} on ${on}`);
    current = next;
    currentAlias = alias;
  });
  if (!graph.tables[target]) return null;
  return `not exists (select 1 from ${from.join(" ")} where ${correlated})`;
}
