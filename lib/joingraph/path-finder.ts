import { DomainError, errors } from "@/lib/errors";
import type { JoinGraph, JoinRelationship } from "./contract";
import { canBridge, type Edge, type GraphIndex, graphIndex } from "./graph-index";
import { MinHeap } from "./heap";
import { LruCache } from "./lru";
import { graphVersionHash } from "./version";

export const PATH_DEFAULTS = {
  /** Relationships below this confidence are not walked. */
  minConfidence: 0.5,
  /** The design's limit ("Max Hops: 4"): a longer chain of joins is rarely what a question meant. */
  maxHops: 4,
} as const;

const MAX_HOPS_LIMIT = 32;
const CACHE_ENTRIES = 10_000;

export interface PathOptions {
  minConfidence?: number;
  maxHops?: number;
  /** Tables no path may pass through (a caller's own exclusions). */
  avoidTables?: readonly string[];
  /** Keep role and `exclude_as_bridge_for` rules for tables in the middle of a path (default true). */
  respectRoles?: boolean;
}

/** Required tables joined into one tree, in the order a FROM … JOIN clause can list them. */
export interface JoinPlan {
  /** The first required table, then each table in the order a relationship brings it in. */
  tables: readonly string[];
  /** Each relationship joins a table already listed to the next new one. */
  relationships: readonly JoinRelationship[];
  /** Tables the plan passes through that were not asked for (bridges and intermediates). */
  addedTables: readonly string[];
  /** Required tables no path within the options reaches. */
  unreachable: readonly string[];
  /** Sum of `joinCost` over the relationships. */
  cost: number;
}

export interface JoinPathFinder {
  /** The graph's `graphVersionHash`: the cache key, and what a caller stores next to a plan. */
  readonly version: string;
  /**
   * The cheapest chain of relationships from `from` to `to`, walked in either direction; each
   * relationship keeps its real direction. `[]` when `from === to`, null when none is within
   * the options.
   */
  findShortestPath(from: string, to: string, options?: PathOptions): readonly JoinRelationship[] | null;
  planJoins(tables: readonly string[], options?: PathOptions): JoinPlan;
}

// One cache for the process, keyed by graph version: finders built again for the same graph
// (another request, another instance of the graph object) share what was found.
const cache = new LruCache<string, readonly JoinRelationship[] | JoinPlan | null>(CACHE_ENTRIES);

/** Forgets every cached path and plan (benchmarks measure cold queries with it). */
export function clearPathCache(): void {
  cache.clear();
}

/** `version` skips hashing the graph when the caller already has its stored hash. */
export function createPathFinder(graph: JoinGraph, options: { version?: string } = {}): JoinPathFinder {
  const version = options.version ?? graphVersionHash(graph);
  const index = graphIndex(graph);
  const idOf = (name: string): number => {
    const id = index.ids.get(name);
    if (id === undefined) throw new DomainError("invalid", "UNKNOWN_TABLE", `The join graph has no table ${name}.`);
    return id;
  };

  return {
    version,
    findShortestPath(from, to, opts = {}) {
      const o = resolveOptions(opts);
      const [a, b] = [idOf(from), idOf(to)];
      const key = `path\u0000${version}\u0000${from}\u0000${to}\u0000${optionsKey(o)}`;
      if (cache.has(key)) return cache.get(key) as readonly JoinRelationship[] | null;
      const avoid = new Set(o.avoidTables.map(idOf));
      const found = a === b ? { edges: [] } : search(index, [a], new Set([b]), new Set([a, b]), avoid, o);
      const result = found ? Object.freeze(found.edges.map((e) => e.rel)) : null;
      cache.set(key, result);
      return result;
    },
    planJoins(tables, opts = {}) {
      const o = resolveOptions(opts);
      const required = [...new Set(tables)];
      const ids = required.map(idOf);
      const key = `plan\u0000${version}\u0000${required.join("\u0001")}\u0000${optionsKey(o)}`;
      if (cache.has(key)) return cache.get(key) as JoinPlan;
      const plan = growJoinTree(index, ids, new Set(o.avoidTables.map(idOf)), o);
      cache.set(key, plan);
      return plan;
    },
  };
}

type Resolved = Required<PathOptions>;

function resolveOptions(o: PathOptions): Resolved {
  const minConfidence = o.minConfidence ?? PATH_DEFAULTS.minConfidence;
  const maxHops = o.maxHops ?? PATH_DEFAULTS.maxHops;
  if (!(minConfidence >= 0 && minConfidence <= 1)) {
    throw errors.invalidField("minConfidence", "minConfidence is a number from 0 to 1.");
  }
  if (!Number.isInteger(maxHops) || maxHops < 1 || maxHops > MAX_HOPS_LIMIT) {
    throw errors.invalidField("maxHops", `maxHops is a whole number from 1 to ${MAX_HOPS_LIMIT}.`);
  }
  return {
    minConfidence,
    maxHops,
    avoidTables: [...new Set(o.avoidTables ?? [])].sort(),
    respectRoles: o.respectRoles ?? true,
  };
}

const optionsKey = (o: Resolved) => `${o.minConfidence}\u0000${o.maxHops}\u0000${o.respectRoles}\u0000${o.avoidTables}`;

/**
 * Steiner tree by repeated shortest paths (Takahashi–Matsuyama): start from the first required
 * table, attach the nearest required table not yet in the tree by its cheapest path from any
 * table of the tree, repeat. Within twice the optimal tree's cost, deterministic, and one
 * Dijkstra per attached table. `maxHops` limits each attachment, not the whole tree.
 */
function growJoinTree(index: GraphIndex, required: number[], avoid: Set<number>, o: Resolved): JoinPlan {
  const names = index.names;
  if (required.length === 0)
    return freezePlan({ tables: [], relationships: [], addedTables: [], unreachable: [], cost: 0 });
  const endpoints = new Set(required);
  const inTree = new Set([required[0]]);
  const tables = [names[required[0]]];
  const relationships: JoinRelationship[] = [];
  const added: string[] = [];
  const remaining = new Set(required.slice(1));
  let cost = 0;
  while (remaining.size > 0) {
    const found = search(index, [...inTree], remaining, endpoints, avoid, o);
    if (!found) break;
    for (const edge of found.edges) {
      relationships.push(edge.rel);
      cost += edge.cost;
      if (inTree.has(edge.to)) continue;
      inTree.add(edge.to);
      tables.push(names[edge.to]);
      if (!endpoints.has(edge.to)) added.push(names[edge.to]);
    }
    remaining.delete(found.target);
  }
  return freezePlan({
    tables,
    relationships,
    addedTables: added,
    unreachable: [...remaining].map((id) => names[id]),
    cost: cost / 1000,
  });
}

function freezePlan(plan: JoinPlan): JoinPlan {
  for (const list of [plan.tables, plan.relationships, plan.addedTables, plan.unreachable]) Object.freeze(list);
  return Object.freeze(plan);
}

interface Entry {
  cost: number;
  hops: number;
  seq: number;
  state: number;
}
const before = (a: Entry, b: Entry) =>
  a.cost !== b.cost ? a.cost < b.cost : a.hops !== b.hops ? a.hops < b.hops : a.seq < b.seq;

/**
 * Dijkstra from a set of sources to the nearest of a set of targets, over (table, hops) states
 * so that `maxHops` is exact: the cheapest path may be too long while a dearer one fits. A state
 * is dropped when the same table was already reached as cheaply with no more hops, which keeps
 * the work near plain Dijkstra's. Tables in the middle of a path must be allowed to bridge for
 * `endpoints` (role and `exclude_as_bridge_for`), unless the caller turned roles off.
 */
function search(
  index: GraphIndex,
  sources: number[],
  targets: Set<number>,
  endpoints: Set<number>,
  avoid: Set<number>,
  o: Resolved,
): { target: number; edges: Edge[] } | null {
  const layers = o.maxHops + 1;
  const size = index.names.length * layers;
  const dist = new Float64Array(size).fill(Number.POSITIVE_INFINITY);
  const prevState = new Int32Array(size).fill(-1);
  const prevEdge: (Edge | undefined)[] = new Array(size);
  const fewestHopsSettled = new Int32Array(index.names.length).fill(layers);
  const isSource = new Uint8Array(index.names.length);
  const heap = new MinHeap<Entry>(before);
  let seq = 0;
  for (const s of sources) {
    isSource[s] = 1;
    dist[s * layers] = 0;
    heap.push({ cost: 0, hops: 0, seq: seq++, state: s * layers });
  }
  while (heap.size > 0) {
    const entry = heap.pop() as Entry;
    if (entry.cost > dist[entry.state]) continue;
    const node = (entry.state / layers) | 0;
    const hops = entry.state - node * layers;
    if (hops >= fewestHopsSettled[node]) continue;
    fewestHopsSettled[node] = hops;
    if (targets.has(node) && !isSource[node]) return { target: node, edges: unwind(entry.state, prevState, prevEdge) };
    if (hops === o.maxHops) continue;
    for (const edge of index.adjacency[node]) {
      if (edge.confidence < o.minConfidence) continue;
      const next = edge.to;
      if (isSource[next] || avoid.has(next)) continue;
      if (o.respectRoles && !targets.has(next) && !canBridge(index, next, endpoints)) continue;
      const state = next * layers + hops + 1;
      const cost = entry.cost + edge.cost;
      if (cost >= dist[state]) continue;
      dist[state] = cost;
      prevState[state] = entry.state;
      prevEdge[state] = edge;
      heap.push({ cost, hops: hops + 1, seq: seq++, state });
    }
  }
  return null;
}

function unwind(state: number, prevState: Int32Array, prevEdge: (Edge | undefined)[]): Edge[] {
  const edges: Edge[] = [];
  for (let s = state; prevState[s] !== -1; s = prevState[s]) edges.push(prevEdge[s] as Edge);
  return edges.reverse();
}
