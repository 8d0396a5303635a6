import {
  JOIN_GRAPH_FORMAT,
  type JoinGraph,
  type JoinGraphTable,
  type JoinRelationship,
  type RelationshipSource,
  type TableRole,
} from "@/lib/joingraph/contract";

/** The size of the SQL analyst design's schema ("Current Limits"): 122 tables, 1,801 relationships. */
export const DESIGN_GRAPH = { tables: 122, relationships: 1801 } as const;

/** mulberry32: a small seeded generator, so every run measures the same graph. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// The mix of a schema with constraints in places and naming conventions elsewhere (as the
// design's MySQL schema): declared keys, guesses at the heuristic confidences, manual entries,
// and a tail below the path finder's default threshold of 0.5.
const CONFIDENCE_MIX: [share: number, source: RelationshipSource, confidence: number][] = [
  [0.45, "fk", 1],
  [0.2, "heuristic", 0.8],
  [0.12, "heuristic", 0.7],
  [0.1, "heuristic", 0.6],
  [0.05, "manual", 0.9],
  [0.08, "manual", 0.4],
];

const ROLE_MIX: [share: number, role: TableRole | null][] = [
  [0.35, "instance"],
  [0.1, "template"],
  [0.08, "bridge"],
  [0.12, "content_child"],
  [0.06, "satellite"],
  [0.04, "assignment"],
  [0.05, "configuration"],
  [0.2, null],
];

function pick<T extends readonly [number, ...unknown[]]>(random: () => number, mix: readonly T[]): T {
  let r = random();
  for (const entry of mix) {
    r -= entry[0];
    if (r <= 0) return entry;
  }
  return mix[mix.length - 1];
}

/**
 * A join graph of a business schema's shape: a few hub tables (customer, employee, work order)
 * take most references, the rest link to each other sparsely. References pick their target by
 * preferential attachment, so degrees are skewed as in real schemas rather than uniform.
 */
export function generateJoinGraph(
  seed = 122,
  size: { tables: number; relationships: number } = DESIGN_GRAPH,
): JoinGraph {
  const random = seededRandom(seed);
  const names = Array.from({ length: size.tables }, (_, i) => `table_${String(i).padStart(3, "0")}`);
  const refs: string[][] = names.map(() => []);
  const weight = names.map((_, i) => 1 + (i < 8 ? 40 : i < 30 ? 6 : 0));
  const total = weight.reduce((a, b) => a + b, 0);
  const target = (): number => {
    let r = random() * total;
    for (let i = 0; i < weight.length; i++) {
      r -= weight[i];
      if (r <= 0) return i;
    }
    return weight.length - 1;
  };

  const relationships: JoinRelationship[] = [];
  while (relationships.length < size.relationships) {
    const from = Math.floor(random() * size.tables);
    const to = target();
    const column = `ref_${refs[from].length}_id`;
    refs[from].push(column);
    const [, source, confidence] = pick(random, CONFIDENCE_MIX);
    relationships.push({
      id: `${names[from]}.${column}->${names[to]}.id`,
      from_table: names[from],
      from_column: column,
      to_table: names[to],
      to_column: "id",
      column_pairs: [{ from_column: column, to_column: "id" }],
      confidence,
      source,
      cardinality: "N:1",
      note: null,
    });
  }

  const tables: Record<string, JoinGraphTable> = {};
  names.forEach((name, i) => {
    const [, role] = pick(random, ROLE_MIX);
    tables[name] = {
      name,
      schema: "public",
      columns: ["id", ...refs[i], "name", "created_at"].map((c) => ({
        name: c,
        data_type: c === "name" ? "text" : c === "created_at" ? "timestamp with time zone" : "integer",
        nullable: c !== "id",
        comment: null,
      })),
      primary_key: ["id"],
      unique_columns: ["id"],
      unique_keys: [["id"]],
      comment: null,
      row_estimate: Math.floor(random() * 1_000_000),
      role,
      exclude_as_bridge_for: [],
      category: null,
      description: null,
      note: null,
    };
  });
  relationships.sort((a, b) => (a.id < b.id ? -1 : 1));
  return { version: JOIN_GRAPH_FORMAT, dialect: "mysql", tables, relationships };
}
