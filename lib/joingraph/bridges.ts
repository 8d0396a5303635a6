import { DomainError } from "@/lib/errors";
import { cmp } from "./build";
import type { JoinGraph, TableRole } from "./contract";
import { graphIndex } from "./graph-index";
import { PATH_DEFAULTS } from "./path-finder";

/** Why a candidate bridge was or was not added; one value per layer of the design. */
export type BridgeDecision = "added" | "role" | "excluded_for" | "direct_path";

export interface BridgeCandidate {
  table: string;
  role: TableRole | null;
  /** The selected tables it has a relationship with (at least two). */
  connects: string[];
  decision: BridgeDecision;
}

export interface BridgeDiscovery {
  /** The tables to add to the selection, sorted by name. */
  bridges: string[];
  /** Every table that touched two or more selected tables, with the decision, for the trace. */
  candidates: BridgeCandidate[];
}

/**
 * The design's `find_bridge_tables()`: which tables outside a selection should join it because
 * they connect selected tables. A candidate is a table with relationships (at or above
 * `minConfidence`) to at least two selected tables; then three layers decide:
 *  1. role: satellite, assignment and configuration tables are never bridges;
 *  2. metadata: links to tables in the candidate's `exclude_as_bridge_for` do not count, and a
 *     candidate left linking fewer than two selected tables is dropped;
 *  3. direct path: when every pair of selected tables it links already has a relationship of
 *     its own, the bridge would only add rows, so it is skipped.
 */
export function findBridgeTables(
  graph: JoinGraph,
  selected: readonly string[],
  options: { minConfidence?: number } = {},
): BridgeDiscovery {
  const index = graphIndex(graph);
  const minConfidence = options.minConfidence ?? PATH_DEFAULTS.minConfidence;
  const chosen = new Set<number>();
  for (const name of selected) {
    const id = index.ids.get(name);
    if (id === undefined) throw new DomainError("invalid", "UNKNOWN_TABLE", `The join graph has no table ${name}.`);
    chosen.add(id);
  }
  const seen = new Map<number, Set<number>>();
  const neighbours = (table: number) => {
    let out = seen.get(table);
    if (!out) {
      out = new Set<number>();
      for (const e of index.adjacency[table]) if (e.confidence >= minConfidence) out.add(e.to);
      seen.set(table, out);
    }
    return out;
  };
  const direct = (a: number, b: number) => neighbours(a).has(b);

  const candidates: BridgeCandidate[] = [];
  for (let table = 0; table < index.names.length; table++) {
    if (chosen.has(table)) continue;
    const links = [...neighbours(table)].filter((t) => chosen.has(t));
    if (links.length < 2) continue;
    const named = (ids: number[]) => ids.map((t) => index.names[t]).sort(cmp);
    const candidate = (decision: BridgeDecision): BridgeCandidate => ({
      table: index.names[table],
      role: index.roles[table],
      connects: named(links),
      decision,
    });
    if (index.roleBlocked[table]) {
      candidates.push(candidate("role"));
      continue;
    }
    const counted = links.filter((t) => !index.excludedFor[table].has(t));
    if (counted.length < 2) {
      candidates.push(candidate("excluded_for"));
      continue;
    }
    const allDirect = counted.every((a, i) => counted.slice(i + 1).every((b) => direct(a, b)));
    candidates.push(candidate(allDirect ? "direct_path" : "added"));
  }
  candidates.sort((a, b) => cmp(a.table, b.table));
  return { bridges: candidates.filter((c) => c.decision === "added").map((c) => c.table), candidates };
}
