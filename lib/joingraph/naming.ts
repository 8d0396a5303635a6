import type { CatalogColumn } from "./catalog";

/**
 * Confidence of a relationship guessed from names, when no foreign key declares it. All stay
 * below a foreign key's 1.0, so a path over declared keys wins a tie, and above the path
 * finder's default threshold of 0.5, so a schema without constraints (common in MySQL) still
 * has a graph. docs/decisions.md ("SQL analyst: join graph and paths") has the reasoning.
 */
export const HEURISTIC_CONFIDENCE = {
  /** `customerId → customer.id`, `customer_id → customer.customer_id`, `CustomerId → Customer.CustomerId`. */
  tableName: 0.8,
  /** The table's name is a plural (`customer_id → customers.id`), or the target is a unique non-key column. */
  pluralOrUnique: 0.7,
  /** A column named exactly like another table's own key (`sku → product.sku`, not a bare `id`). */
  sharedKeyName: 0.7,
  /** A role before the table's name: `billing_customer_id → customer.id`, `parentEmployeeId → employee.id`. */
  rolePrefixed: 0.6,
} as const;

/** `workTimeTypeId`, `work_time_type_id` and `WorkTimeTypeID` all give `work time type id`. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

export const nameKey = (name: string) => nameWords(name).join("");

/** The singular forms a table name may be the plural of. */
function singulars(key: string): string[] {
  const out: string[] = [];
  if (key.endsWith("ies")) out.push(`${key.slice(0, -3)}y`);
  if (key.endsWith("es")) out.push(key.slice(0, -2));
  if (key.endsWith("s")) out.push(key.slice(0, -1));
  return out;
}

/** Types that can be compared with `=` without a cast, as far as a join is concerned. */
export function typeFamily(dataType: string): string {
  const t = dataType.toLowerCase();
  if (/^(tiny|small|medium|big)?int|^integer|^serial|^bigserial|^smallserial|^int[248]/.test(t)) return "integer";
  if (/^(numeric|decimal)/.test(t)) return /,\s*0\)|^(numeric|decimal)$/.test(t) ? "integer" : "numeric";
  if (/char|text|^string|^name$|^citext/.test(t)) return "text";
  if (/^uuid|^uniqueidentifier/.test(t)) return "uuid";
  if (/^(var)?binary|^bytea|^blob/.test(t)) return "binary";
  return t.replace(/\(.*$/, "").trim();
}

export interface HeuristicTable {
  key: string;
  /** Guesses stay inside one schema: each schema of a warehouse is its own dataset. */
  schema: string;
  columns: CatalogColumn[];
  primary_key: string[];
  unique_columns: string[];
}

export interface NameMatch {
  to_table: string;
  to_column: string;
  confidence: number;
  note: string;
}

/**
 * Indexes target tables by name once, so guessing over every column of a large schema stays
 * linear. A target is a table's one-column primary key, or a one-column unique key, in the same
 * schema as the referencing table: two schemas are two datasets (northwind and pagila in the demo
 * warehouse), and a name shared across them (`categories.category_id`, `category.category_id`)
 * says nothing about a relation. Only a declared foreign key crosses schemas.
 */
export function nameMatcher(tables: HeuristicTable[]) {
  const exact = new Map<string, HeuristicTable[]>();
  const plural = new Map<string, HeuristicTable[]>();
  const sharedKey = new Map<string, HeuristicTable[]>();
  // Keyed by schema and name, so a lookup only ever sees tables of the referencing schema.
  const push = (map: Map<string, HeuristicTable[]>, key: string, table: HeuristicTable) => {
    const k = `${table.schema}\u0000${key}`;
    map.set(k, [...(map.get(k) ?? []), table]);
  };
  for (const table of tables) {
    const key = nameKey(table.key.split(".").pop() ?? table.key);
    push(exact, key, table);
    for (const s of singulars(key)) push(plural, s, table);
    const pk = table.primary_key.length === 1 ? nameKey(table.primary_key[0]) : "";
    if (pk && pk !== "id") push(sharedKey, pk, table);
  }

  const column = (table: HeuristicTable, name: string) => table.columns.find((c) => c.name === name);

  /** The columns of `table` a reference named `columnKey` may point at: its key first, then unique columns. */
  const targets = (table: HeuristicTable, columnKey: string): { name: string; primary: boolean }[] => {
    const out: { name: string; primary: boolean }[] = [];
    const pk = table.primary_key.length === 1 ? table.primary_key[0] : null;
    if (pk && (nameKey(pk) === "id" || nameKey(pk) === columnKey)) out.push({ name: pk, primary: true });
    for (const c of table.unique_columns)
      if (c !== pk && nameKey(c) === columnKey) out.push({ name: c, primary: false });
    return out;
  };

  return function match(from: HeuristicTable, col: CatalogColumn): NameMatch | null {
    const inSchema = (map: Map<string, HeuristicTable[]>, key: string) => map.get(`${from.schema}\u0000${key}`) ?? [];
    const words = nameWords(col.name);
    if (words.length < 2 || words[words.length - 1] !== "id") {
      const shared = inSchema(sharedKey, nameKey(col.name));
      const isOwnKey = from.primary_key.length === 1 && from.primary_key[0] === col.name;
      const hit = isOwnKey ? undefined : shared.find((t) => t !== from);
      const pk = hit?.primary_key[0];
      if (hit && pk && compatible(col, column(hit, pk)))
        return {
          to_table: hit.key,
          to_column: pk,
          confidence: HEURISTIC_CONFIDENCE.sharedKeyName,
          note: `same name as ${hit.key}'s key`,
        };
      return null;
    }
    const columnKey = words.join("");
    // Longest table name first: `work_time_type_id` is work_time_type's, not type's.
    for (let start = 0; start < words.length - 1; start++) {
      const stem = words.slice(start, -1).join("");
      const prefixed = start > 0;
      for (const [candidates, isPlural] of [
        [inSchema(exact, stem), false],
        [inSchema(plural, stem), true],
      ] as const) {
        for (const table of candidates) {
          const to = targets(table, columnKey).find(
            (t) => !(table === from && t.name === col.name) && compatible(col, column(table, t.name)),
          );
          if (!to) continue;
          const confidence = prefixed
            ? HEURISTIC_CONFIDENCE.rolePrefixed
            : isPlural || !to.primary
              ? HEURISTIC_CONFIDENCE.pluralOrUnique
              : HEURISTIC_CONFIDENCE.tableName;
          const how = prefixed ? "role-prefixed name of" : isPlural ? "singular of" : "name of";
          return { to_table: table.key, to_column: to.name, confidence, note: `column named after the ${how} table` };
        }
      }
    }
    return null;
  };
}

function compatible(a: CatalogColumn, b: CatalogColumn | undefined): boolean {
  return b !== undefined && typeFamily(a.data_type) === typeFamily(b.data_type);
}
