import { type JoinGraph, type JoinRelationship, NON_BRIDGE_ROLES, type TableRole } from "./contract";

/**
 * The price of one join: 1 + (1 − confidence). Every hop costs at least 1, so fewer joins win
 * first and confidence breaks ties: a foreign key hop costs 1.0, a 0.8 guess 1.2, a 0.5 guess
 * 1.5. One guessed hop (≤ 1.5) still beats two declared ones (2.0): a direct relationship is the
 * likelier intent than a detour, which is also what the bridge logic's direct-path rule says.
 */
export const joinCost = (confidence: number) => 1 + (1 - confidence);

export interface Edge {
  rel: JoinRelationship;
  to: number;
  confidence: number;
  /** `joinCost` in thousandths: integer sums compare exactly, so ties break the same way every time. */
  cost: number;
}

/** A graph's tables numbered and its relationships as undirected adjacency lists. */
export interface GraphIndex {
  names: string[];
  ids: Map<string, number>;
  adjacency: Edge[][];
  roles: (TableRole | null)[];
  /** Tables whose role forbids using them as a bridge (satellite, assignment, configuration). */
  roleBlocked: Uint8Array;
  /** Per table: the tables it must not be a bridge for (`exclude_as_bridge_for`). */
  excludedFor: Set<number>[];
}

const indexes = new WeakMap<JoinGraph, GraphIndex>();

/** Built once per graph object; graphs are treated as immutable values. */
export function graphIndex(graph: JoinGraph): GraphIndex {
  const cached = indexes.get(graph);
  if (cached) return cached;
  const names = Object.keys(graph.tables);
  const ids = new Map(names.map((n, i) => [n, i]));
  const adjacency: Edge[][] = names.map(() => []);
  for (const rel of graph.relationships) {
    const from = ids.get(rel.from_table);
    const to = ids.get(rel.to_table);
    // A self-reference (employee.reports_to) never helps to reach another table.
    if (from === undefined || to === undefined || from === to) continue;
    const cost = Math.round(joinCost(rel.confidence) * 1000);
    adjacency[from].push({ rel, to, confidence: rel.confidence, cost });
    adjacency[to].push({ rel, to: from, confidence: rel.confidence, cost });
  }
  const roles = names.map((n) => graph.tables[n].role);
  const roleBlocked = Uint8Array.from(roles, (r) => (r !== null && NON_BRIDGE_ROLES.includes(r) ? 1 : 0));
  const excludedFor = names.map(
    (n) =>
      new Set(
        graph.tables[n].exclude_as_bridge_for.map((t) => ids.get(t)).filter((id): id is number => id !== undefined),
      ),
  );
  const index = { names, ids, adjacency, roles, roleBlocked, excludedFor };
  indexes.set(graph, index);
  return index;
}

/** Whether `table` may stand between other tables of a query that names `endpoints`. */
export function canBridge(index: GraphIndex, table: number, endpoints: Iterable<number>): boolean {
  if (index.roleBlocked[table]) return false;
  const excluded = index.excludedFor[table];
  if (excluded.size === 0) return true;
  for (const e of endpoints) if (excluded.has(e)) return false;
  return true;
}
