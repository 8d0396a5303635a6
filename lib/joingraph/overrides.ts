import { errors } from "@/lib/errors";
import { cmp, relationship } from "./build";
import {
  type JoinGraph,
  JoinGraphOverrides,
  type JoinGraphOverridesInput,
  type JoinGraphTable,
  type JoinRelationship,
  type RemovedRelationship,
} from "./contract";

/** Validates a source's overrides document; throws VALIDATION_FAILED with zod's issues. */
export function parseOverrides(input: unknown): JoinGraphOverrides {
  const parsed = JoinGraphOverrides.safeParse(input);
  if (!parsed.success) throw errors.validation(parsed.error.issues);
  return parsed.data;
}

/** An override that names something the graph does not have; it is skipped, not fatal. */
export interface OverrideProblem {
  path: string;
  message: string;
}

/**
 * Merges one source's manual overrides into an introspected graph: removals first (so a manual
 * relationship can replace a guessed one), then additions, then table metadata. Names are
 * matched exactly, else case-insensitively when that is unambiguous, so an overrides file
 * written against MySQL's `Customer` still applies after a rename to `customer`.
 */
export function applyOverrides(
  graph: JoinGraph,
  input: JoinGraphOverridesInput,
): { graph: JoinGraph; problems: OverrideProblem[] } {
  const overrides = parseOverrides(input);
  const problems: OverrideProblem[] = [];
  const tables: Record<string, JoinGraphTable> = {};
  for (const [key, t] of Object.entries(graph.tables)) tables[key] = { ...t };
  const findTable = resolver(Object.keys(tables));
  const findColumn = (table: string, name: string) => resolver(tables[table].columns.map((c) => c.name))(name);

  let relationships: JoinRelationship[] = [...graph.relationships];
  overrides.remove_relationships.forEach((removal, i) => {
    const path = `remove_relationships.${i}`;
    const from = findTable(removal.from_table);
    const to = findTable(removal.to_table);
    if (!from || !to) {
      problems.push({ path, message: `unknown table ${from ? removal.to_table : removal.from_table}` });
      return;
    }
    const before = relationships.length;
    relationships = relationships.filter((r) => !removes(removal, from, to, r));
    if (relationships.length === before) problems.push({ path, message: "matches no relationship" });
  });

  overrides.add_relationships.forEach((addition, i) => {
    const path = `add_relationships.${i}`;
    const from = findTable(addition.from_table);
    const to = findTable(addition.to_table);
    const fromColumn = from && findColumn(from, addition.from_column);
    const toColumn = to && findColumn(to, addition.to_column);
    if (!from || !to || !fromColumn || !toColumn) {
      const missing = !from
        ? `table ${addition.from_table}`
        : !to
          ? `table ${addition.to_table}`
          : !fromColumn
            ? `column ${from}.${addition.from_column}`
            : `column ${to}.${addition.to_column}`;
      problems.push({ path, message: `unknown ${missing}` });
      return;
    }
    const rel = relationship(
      tables,
      from,
      [fromColumn],
      to,
      [toColumn],
      addition.confidence,
      "manual",
      addition.note ?? null,
      addition.cardinality,
    );
    // A manual entry for a pair the catalog already has replaces it: the person knows better.
    relationships = relationships.filter((r) => r.id !== rel.id);
    relationships.push(rel);
  });

  for (const [name, meta] of Object.entries(overrides.table_metadata)) {
    const path = `table_metadata.${name}`;
    const key = findTable(name);
    if (!key) {
      problems.push({ path, message: `unknown table ${name}` });
      continue;
    }
    const excluded: string[] = [];
    for (const other of meta.exclude_as_bridge_for ?? []) {
      const found = findTable(other);
      if (found) excluded.push(found);
      else problems.push({ path: `${path}.exclude_as_bridge_for`, message: `unknown table ${other}` });
    }
    tables[key] = {
      ...tables[key],
      role: meta.role ?? tables[key].role,
      exclude_as_bridge_for: [...new Set([...tables[key].exclude_as_bridge_for, ...excluded])].sort(cmp),
      category: meta.category ?? tables[key].category,
      description: meta.description ?? tables[key].description,
      note: meta.note ?? tables[key].note,
    };
  }

  relationships.sort((a, b) => cmp(a.id, b.id));
  return { graph: { ...graph, tables, relationships }, problems };
}

function removes(removal: RemovedRelationship, from: string, to: string, r: JoinRelationship): boolean {
  // Either direction: whoever writes a removal thinks of the pair, not of which side holds the key.
  const same = (a: string, b: string, fromCol?: string, toCol?: string) =>
    r.from_table === a &&
    r.to_table === b &&
    (fromCol === undefined || r.from_column.toLowerCase() === fromCol.toLowerCase()) &&
    (toCol === undefined || r.to_column.toLowerCase() === toCol.toLowerCase());
  return (
    same(from, to, removal.from_column, removal.to_column) || same(to, from, removal.to_column, removal.from_column)
  );
}

/** Exact name, else the one name equal ignoring case; null when unknown or ambiguous. */
function resolver(names: string[]): (name: string) => string | null {
  const exact = new Set(names);
  const folded = new Map<string, string | null>();
  for (const n of names) {
    const k = n.toLowerCase();
    folded.set(k, folded.has(k) ? null : n);
  }
  return (name) => (exact.has(name) ? name : (folded.get(name.toLowerCase()) ?? null));
}
