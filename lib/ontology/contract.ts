// The SQL analyst's two registries per data source, as the design writes them
// (`domain_registry.json`, `display_attributes_registry.json`): their zod schemas, vocabulary
// and limits, and the shape of a resolved term. Client-safe, so the admin editor validates
// with the same schema the server stores by.
//
// A registry is configuration an admin (or an import) wrote, and it reaches generated SQL, so
// it is data and never code: names are plain identifiers, filter values are strings, numbers
// or booleans that the SQL builder binds as parameters, and operators come from a closed list.
// Nothing in a registry is ever pasted into SQL text.
import { z } from "zod";
import { phraseKey } from "./phrases";

export const MATCH_TYPES = ["text_search", "semantic", "boolean", "structural", "exact"] as const;
export type MatchType = (typeof MATCH_TYPES)[number];

/** In the order they are tried. */
export const RESOLUTION_STRATEGIES = ["primary", "secondary", "fallback"] as const;
export type ResolutionStrategy = (typeof RESOLUTION_STRATEGIES)[number];

/** The only comparisons a registry may ask for; anything else is refused, never passed on. */
export const FILTER_OPERATORS = [
  "=",
  "<>",
  "<",
  "<=",
  ">",
  ">=",
  "LIKE",
  "ILIKE",
  "IN",
  "IS NULL",
  "IS NOT NULL",
  "BETWEEN",
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

/**
 * A strategy's confidence when the registry gives none: the design's "highest / medium /
 * lowest", with the design's own secondary figure (0.5).
 */
export const DEFAULT_CONFIDENCE: Record<ResolutionStrategy, number> = { primary: 0.9, secondary: 0.5, fallback: 0.25 };

export const ONTOLOGY_LIMITS = {
  terms: 1000,
  synonymsPerTerm: 20,
  termChars: 80,
  /** Words in one term or synonym; extraction compares at most this many words at a time. */
  termWords: 8,
  descriptionChars: 500,
  entityChars: 80,
  tablesPerResolution: 10,
  columnsPerResolution: 10,
  valueChars: 200,
  inValues: 100,
  displayTables: 2000,
  displayColumns: 25,
  labelColumns: 5,
  /** PostgreSQL's NAMEDATALEN - 1; MySQL allows 64, which no demo name comes near. */
  identifierChars: 63,
} as const;

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_$]*$/;
// Keys a plain object would read from its prototype; refused as table names so a lookup can
// never mistake Object.prototype for a registry entry.
const RESERVED_KEYS = new Set(["__proto__", "prototype", "constructor"]);

function identifierParts(name: string, maxParts: number): boolean {
  const parts = name.split(".");
  return (
    parts.length <= maxParts &&
    parts.every((p) => IDENTIFIER.test(p) && p.length <= ONTOLOGY_LIMITS.identifierChars && !RESERVED_KEYS.has(p))
  );
}

/** `table` or `schema.table`, plain identifiers only (no quoting, no spaces, no SQL). */
export const TableName = z.string().refine((s) => identifierParts(s, 2), {
  error: "a table is a plain name or schema.name (letters, digits, _ and $; no quotes, spaces or SQL)",
});

/** `column`, `table.column` or `schema.table.column`, plain identifiers only. */
export const ColumnName = z.string().refine((s) => identifierParts(s, 3), {
  error: "a column is a plain name, optionally table.column (letters, digits, _ and $; no quotes, spaces or SQL)",
});

/** A plain column of the table it belongs to (display attributes name no other table). */
const OwnColumnName = z
  .string()
  .refine((s) => identifierParts(s, 1), { error: "a column is a plain name (letters, digits, _ and $)" });

const TermKey = z
  .string()
  .max(ONTOLOGY_LIMITS.termChars)
  .regex(/^[\p{L}\p{N}][\p{L}\p{N} _'’&/-]*$/u, {
    error: "a term is words: letters, digits, spaces, _ ' & / and -",
  })
  .refine((s) => phraseKey(s).split(" ").length <= ONTOLOGY_LIMITS.termWords, {
    error: `a term has at most ${ONTOLOGY_LIMITS.termWords} words`,
  });

const ScalarValue = z.union(
  [
    z
      .string()
      .max(ONTOLOGY_LIMITS.valueChars)
      .refine((s) => !s.includes("\u0000"), { error: "a value cannot contain a NUL character" }),
    z.number().refine(Number.isFinite, { error: "a number value must be finite" }),
    z.boolean(),
  ],
  { error: "a filter value is a string, a number or a boolean" },
);
export type ScalarValue = z.infer<typeof ScalarValue>;

/** Data, never SQL: bound as a parameter by whoever builds the statement. A list is for IN and BETWEEN. */
export const FilterValue = z.union([ScalarValue, z.array(ScalarValue).min(1).max(ONTOLOGY_LIMITS.inValues)], {
  error: "a filter value is a string, a number, a boolean, or a list of them (IN, BETWEEN)",
});
export type FilterValue = z.infer<typeof FilterValue>;

const FilterOperatorSchema = z.enum(FILTER_OPERATORS, {
  error: `operator must be one of ${FILTER_OPERATORS.join(", ")}`,
});

type Issue = { path: (string | number)[]; message: string };

/** The rules between a strategy's keys that a flat object schema cannot say. */
function resolutionProblems(spec: ResolutionSpecShape): Issue[] {
  const out: Issue[] = [];
  const add = (path: string, message: string) => out.push({ path: [path], message });
  const columns = spec.columns ?? (spec.column === undefined ? [] : [spec.column]);
  const hasValue = spec.value !== undefined;

  if (spec.table === undefined && spec.tables === undefined) add("table", "name the table (`table` or `tables`)");
  if (spec.column !== undefined && spec.columns !== undefined) add("columns", "use `column` or `columns`, not both");

  switch (spec.match_type) {
    case "structural":
      if (columns.length > 0) add("column", "a structural resolution groups tables; it names no column");
      if (hasValue) add("value", "a structural resolution has no value");
      if (spec.operator !== undefined) add("operator", "a structural resolution has no operator");
      break;
    case "text_search":
    case "semantic":
      if (columns.length === 0) add("columns", `a ${spec.match_type} resolution names the text column(s) to search`);
      if (spec.operator !== undefined) add("operator", "a text search always matches without case (ILIKE)");
      if (hasValue && (typeof spec.value !== "string" || spec.value.trim() === "")) {
        add("value", "a text search value is the text to look for");
      }
      break;
    case "boolean":
      if (columns.length !== 1) add("column", "a boolean resolution names one column");
      if (spec.operator !== undefined)
        add("operator", "a boolean resolution compares with =; say false for the opposite");
      if (hasValue && typeof spec.value !== "boolean" && spec.value !== 0 && spec.value !== 1) {
        add("value", "a boolean value is true or false (or 1 / 0 for an integer flag)");
      }
      break;
    case "exact": {
      if (columns.length !== 1) add("column", "an exact resolution names one column");
      const operator = spec.operator ?? "=";
      const list = Array.isArray(spec.value);
      if (operator === "IS NULL" || operator === "IS NOT NULL") {
        if (hasValue) add("value", `${operator} takes no value`);
      } else if (!hasValue) {
        add("value", `an exact resolution needs the value to compare with (${operator})`);
      } else if (operator === "IN" && !list) {
        add("value", "IN takes a list of values");
      } else if (operator === "BETWEEN" && (!list || (spec.value as unknown[]).length !== 2)) {
        add("value", "BETWEEN takes a list of two values [low, high]");
      } else if (operator !== "IN" && operator !== "BETWEEN" && list) {
        add("value", `${operator} takes one value, not a list`);
      }
      break;
    }
  }

  // Every column must say which table it belongs to: an unqualified one belongs to `table`
  // (or the only entry of `tables`); a qualified one to a table the resolution names.
  const named = [...(spec.table === undefined ? [] : [spec.table]), ...(spec.tables ?? [])];
  const home = spec.table ?? (spec.tables?.length === 1 ? spec.tables[0] : undefined);
  columns.forEach((column, i) => {
    const path: (string | number)[] = spec.columns ? ["columns", i] : ["column"];
    const dot = column.lastIndexOf(".");
    if (dot < 0) {
      if (home === undefined && named.length > 0) {
        out.push({ path, message: `qualify "${column}" with its table (table.column): several tables are named` });
      }
      return;
    }
    const qualifier = column.slice(0, dot);
    if (!named.some((t) => sameTableRef(t, qualifier))) {
      out.push({ path, message: `"${column}" names a table this resolution does not list in table/tables` });
    }
  });
  return out;
}

/** Whether two references written in a registry name the same table ("products" ~ "northwind.products"). */
export function sameTableRef(a: string, b: string): boolean {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  if (x === y) return true;
  const bare = (s: string) => s.slice(s.lastIndexOf(".") + 1);
  return (!x.includes(".") || !y.includes(".")) && bare(x) === bare(y);
}

const ResolutionSpecObject = z.strictObject({
  table: TableName.optional(),
  tables: z.array(TableName).min(1).max(ONTOLOGY_LIMITS.tablesPerResolution).optional(),
  column: ColumnName.optional(),
  columns: z.array(ColumnName).min(1).max(ONTOLOGY_LIMITS.columnsPerResolution).optional(),
  match_type: z.enum(MATCH_TYPES, { error: `match_type must be one of ${MATCH_TYPES.join(", ")}` }),
  /** Vigil's: the comparison of an `exact` resolution ("=" when absent). */
  operator: FilterOperatorSchema.optional(),
  value: FilterValue.optional(),
  confidence: z.number().min(0, { error: "confidence is 0..1" }).max(1, { error: "confidence is 0..1" }).optional(),
});
type ResolutionSpecShape = z.infer<typeof ResolutionSpecObject>;

/** One way to read a term: where it lives in the schema and how to match it. */
export const ResolutionSpec = ResolutionSpecObject.superRefine((spec, ctx) => {
  for (const issue of resolutionProblems(spec)) ctx.addIssue({ code: "custom", ...issue });
});
export type ResolutionSpec = z.infer<typeof ResolutionSpec>;

/** The confidence a strategy stands for: its own, or the default for its place. */
export function confidenceOf(spec: ResolutionSpec, strategy: ResolutionStrategy): number {
  return spec.confidence ?? DEFAULT_CONFIDENCE[strategy];
}

export const DomainTerm = z.strictObject({
  entity: z.string().trim().min(1).max(ONTOLOGY_LIMITS.entityChars),
  description: z.string().max(ONTOLOGY_LIMITS.descriptionChars).optional(),
  /** Vigil's: other ways people say the term ("corrective action" for "action item"). */
  synonyms: z.array(TermKey).max(ONTOLOGY_LIMITS.synonymsPerTerm).optional(),
  resolution: z
    .strictObject({
      primary: ResolutionSpec,
      secondary: ResolutionSpec.optional(),
      fallback: ResolutionSpec.optional(),
    })
    .superRefine((resolution, ctx) => {
      // The design ranks them: primary highest, secondary medium, fallback lowest.
      let previous: { strategy: ResolutionStrategy; confidence: number } | null = null;
      for (const strategy of RESOLUTION_STRATEGIES) {
        const spec = resolution[strategy];
        if (!spec) continue;
        const confidence = confidenceOf(spec, strategy);
        if (previous && confidence > previous.confidence) {
          ctx.addIssue({
            code: "custom",
            path: [strategy, "confidence"],
            message: `${strategy} confidence ${confidence} is above ${previous.strategy}'s ${previous.confidence}; later strategies are less sure`,
          });
        }
        previous = { strategy, confidence };
      }
    }),
});
export type DomainTerm = z.infer<typeof DomainTerm>;

export const DomainRegistry = z
  .strictObject({
    version: z.literal(1, { error: "version must be 1" }),
    terms: z.record(TermKey, DomainTerm).refine((terms) => Object.keys(terms).length <= ONTOLOGY_LIMITS.terms, {
      error: `a registry holds at most ${ONTOLOGY_LIMITS.terms} terms`,
    }),
  })
  .superRefine((registry, ctx) => {
    // Two entries that read the same would make extraction pick one by accident.
    const seen = new Map<string, string>();
    for (const [term, entry] of Object.entries(registry.terms)) {
      const phrases: [string, (string | number)[]][] = [
        [term, ["terms", term]],
        ...(entry.synonyms ?? []).map((s, i): [string, (string | number)[]] => [s, ["terms", term, "synonyms", i]]),
      ];
      for (const [phrase, path] of phrases) {
        const key = phraseKey(phrase);
        const first = seen.get(key);
        if (first !== undefined) {
          ctx.addIssue({ code: "custom", path, message: `"${phrase}" reads the same as ${first}` });
        } else seen.set(key, path.length === 2 ? `the term "${term}"` : `a synonym of "${term}"`);
      }
    }
  });
export type DomainRegistry = z.infer<typeof DomainRegistry>;

export const DisplayTable = z
  .strictObject({
    display_columns: z
      .array(OwnColumnName)
      .min(1, { error: "list at least one display column" })
      .max(ONTOLOGY_LIMITS.displayColumns),
    /** Absent for tables with no human-readable name (a line table, a bridge). */
    primary_label: z.array(OwnColumnName).min(1).max(ONTOLOGY_LIMITS.labelColumns).optional(),
  })
  .superRefine((table, ctx) => {
    const lower = table.display_columns.map((c) => c.toLowerCase());
    lower.forEach((c, i) => {
      if (lower.indexOf(c) !== i) {
        ctx.addIssue({ code: "custom", path: ["display_columns", i], message: `"${c}" is listed twice` });
      }
    });
    // A label is built from the row the display columns fetched, so its columns must be among them.
    (table.primary_label ?? []).forEach((c, i) => {
      if (!lower.includes(c.toLowerCase())) {
        ctx.addIssue({
          code: "custom",
          path: ["primary_label", i],
          message: `"${c}" is not one of display_columns; the label is built from the displayed row`,
        });
      }
    });
  });
export type DisplayTable = z.infer<typeof DisplayTable>;

export const DisplayRegistry = z
  .strictObject({
    version: z.literal(1, { error: "version must be 1" }),
    description: z.string().max(ONTOLOGY_LIMITS.descriptionChars).optional(),
    tables: z
      .record(TableName, DisplayTable)
      .refine((tables) => Object.keys(tables).length <= ONTOLOGY_LIMITS.displayTables, {
        error: `a registry describes at most ${ONTOLOGY_LIMITS.displayTables} tables`,
      }),
  })
  .superRefine((registry, ctx) => {
    const seen = new Set<string>();
    for (const table of Object.keys(registry.tables)) {
      const key = table.toLowerCase();
      if (seen.has(key)) {
        ctx.addIssue({ code: "custom", path: ["tables", table], message: `"${table}" is described twice` });
      }
      seen.add(key);
    }
  });
export type DisplayRegistry = z.infer<typeof DisplayRegistry>;

/** A problem with a registry: where (as a path into its JSON) and what. */
export interface RegistryIssue {
  path: (string | number)[];
  message: string;
}

export type RegistryParse<T> = { ok: true; registry: T } | { ok: false; issues: RegistryIssue[] };

/** One condition a resolved term adds to the WHERE clause; `value` is bound, never inlined. */
export interface DomainFilter {
  table: string;
  column: string;
  operator: FilterOperator;
  /** Absent for IS NULL / IS NOT NULL; a list for IN and BETWEEN. */
  value?: FilterValue;
}

/** A term of the question mapped to the schema (the design's `DomainResolution`). */
export interface DomainResolution {
  /** The registry's key for the term ("action_item"). */
  term: string;
  entity: string;
  /** The words of the question that named it (a synonym, a plural), or the term as given. */
  matched: string;
  tables: string[];
  filters: DomainFilter[];
  /** How the filters combine: a text search over several columns matches any of them. */
  filter_logic: "and" | "or";
  match_type: MatchType;
  confidence: number;
  strategy: ResolutionStrategy;
  /** Strategies passed over before this one, and why (a table the catalog no longer has). */
  skipped: { strategy: ResolutionStrategy; reason: string }[];
}
