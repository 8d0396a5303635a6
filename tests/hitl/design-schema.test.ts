import { type SQL, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "@/lib/db";
import { appTargets, type TestDatabase } from "../support/databases";

// The migrated HITL tables against the HITL design (shared seed 002, sections "SQLite Schema
// (proposed)" and "Database Constraints"). The design is copied below as data; every column, enum,
// constraint and index of it becomes one assertion on the database's catalog. Where Vigil departs
// from the design, the departure is listed (with its reason) and asserted in its own form.

// ---------------------------------------------------------------------------------------------
// The design, as written
// ---------------------------------------------------------------------------------------------

type DesignKind = "TEXT" | "INTEGER";
interface DesignColumn {
  kind: DesignKind;
  /** The design's column has no NOT NULL (a PRIMARY KEY column is NOT NULL). */
  nullable: boolean;
}

const notNull = (kind: DesignKind): DesignColumn => ({ kind, nullable: false });
const nullable = (kind: DesignKind): DesignColumn => ({ kind, nullable: true });

const DESIGN_TABLES = {
  hitl_cases: {
    case_id: notNull("TEXT"), // PRIMARY KEY
    schema_version: notNull("INTEGER"),
    adapter_id: notNull("TEXT"),
    case_type: notNull("TEXT"),
    title: notNull("TEXT"),
    summary: notNull("TEXT"),
    payload_json: notNull("TEXT"),
    payload_hash_sha256: notNull("TEXT"),
    submitter_name: notNull("TEXT"),
    submitter_role: notNull("TEXT"),
    submitter_id: nullable("TEXT"),
    submitter_team: nullable("TEXT"),
    priority: notNull("TEXT"), // DEFAULT 'normal'
    confidence: nullable("TEXT"),
    created_at_ms: notNull("INTEGER"),
    updated_at_ms: notNull("INTEGER"),
  },
  hitl_events: {
    event_id: notNull("TEXT"), // PRIMARY KEY
    case_id: notNull("TEXT"),
    event_type: notNull("TEXT"),
    decision_outcome: nullable("TEXT"),
    notes: notNull("TEXT"),
    question: nullable("TEXT"),
    answer: nullable("TEXT"),
    actor_kind: notNull("TEXT"),
    actor_name: notNull("TEXT"),
    actor_role: notNull("TEXT"),
    actor_id: nullable("TEXT"),
    actor_team: nullable("TEXT"),
    supersedes_event_id: nullable("TEXT"),
    request_id: nullable("TEXT"),
    event_json: notNull("TEXT"),
    created_at_ms: notNull("INTEGER"),
  },
  hitl_state: {
    case_id: notNull("TEXT"), // PRIMARY KEY
    current_state: notNull("TEXT"),
    active_terminal_event_id: nullable("TEXT"),
    active_decision_outcome: nullable("TEXT"),
    needs_clarification_since_ms: nullable("INTEGER"),
    escalation_due_at_ms: nullable("INTEGER"),
    escalated_at_ms: nullable("INTEGER"),
    escalation_target: nullable("TEXT"),
    updated_at_ms: notNull("INTEGER"),
  },
  hitl_schema_registry: {
    adapter_id: notNull("TEXT"), // PRIMARY KEY in the design (see the registry deviation below)
    schema_version: notNull("INTEGER"),
    schema_json: notNull("TEXT"),
    is_active: notNull("INTEGER"), // 0|1
    updated_at_ms: notNull("INTEGER"),
  },
  hitl_case_refs: {
    case_id: notNull("TEXT"),
    ref_type: notNull("TEXT"),
    ref_key: notNull("TEXT"),
    ref_value: notNull("TEXT"),
  },
} satisfies Record<string, Record<string, DesignColumn>>;

type DesignTable = keyof typeof DESIGN_TABLES;
const TABLES = Object.keys(DESIGN_TABLES) as DesignTable[];

/** The design's primary keys (the registry's is replaced, see VIGIL_REGISTRY_KEYS). */
const DESIGN_PRIMARY_KEYS: Partial<Record<DesignTable, string[]>> = {
  hitl_cases: ["case_id"],
  hitl_events: ["event_id"],
  hitl_state: ["case_id"],
  hitl_case_refs: ["case_id", "ref_type", "ref_key", "ref_value"],
};

interface DesignEnum {
  table: DesignTable;
  column: string;
  allowed: string[];
  /** NULL is allowed too (`… IS NULL OR … IN (…)`). */
  nullAllowed: boolean;
  /** Values the CHECK must refuse: an unknown one, the empty string, and Vigil's former values. */
  refused: string[];
  default?: string;
}

const DESIGN_ENUMS: DesignEnum[] = [
  {
    table: "hitl_cases",
    column: "priority",
    allowed: ["low", "normal", "high", "critical"],
    nullAllowed: false,
    refused: ["bogus", "", "urgent"],
    default: "normal",
  },
  {
    table: "hitl_cases",
    column: "confidence",
    allowed: ["high", "medium", "low"],
    nullAllowed: true,
    refused: ["bogus", ""],
  },
  {
    table: "hitl_events",
    column: "event_type",
    allowed: ["submitted", "needs_clarification", "clarification_provided", "decision_recorded", "decision_superseded"],
    nullAllowed: false,
    refused: ["bogus", "", "case_submitted"],
  },
  {
    table: "hitl_events",
    column: "decision_outcome",
    allowed: ["approved", "rejected"],
    nullAllowed: true,
    refused: ["bogus", "", "pending"],
  },
  {
    table: "hitl_events",
    column: "actor_kind",
    allowed: ["operator", "agent", "system"],
    nullAllowed: false,
    refused: ["bogus", ""],
  },
  {
    table: "hitl_state",
    column: "current_state",
    allowed: ["pending", "needs_clarification", "approved", "rejected"],
    nullAllowed: false,
    refused: ["bogus", "", "decision_recorded"],
  },
];

type ProbeRow = Record<string, string | null>;

/** "Database Constraints": field requirements conditional on the event type. */
const DESIGN_CONDITIONAL_CHECKS: { rule: string; table: DesignTable; refuses: ProbeRow[]; accepts: ProbeRow[] }[] = [
  {
    rule: "event_type='needs_clarification' requires a non-empty question",
    table: "hitl_events",
    refuses: [
      { event_type: "needs_clarification", question: null },
      { event_type: "needs_clarification", question: "" },
    ],
    accepts: [{ event_type: "needs_clarification", question: "Which aisle was surveyed?" }],
  },
  {
    rule: "event_type='clarification_provided' requires a non-empty answer",
    table: "hitl_events",
    refuses: [
      { event_type: "clarification_provided", answer: null },
      { event_type: "clarification_provided", answer: "" },
    ],
    accepts: [{ event_type: "clarification_provided", answer: "Aisle 4, last week." }],
  },
  {
    rule: "event_type='decision_recorded' requires a non-null decision_outcome",
    table: "hitl_events",
    refuses: [{ event_type: "decision_recorded", decision_outcome: null }],
    accepts: [
      { event_type: "decision_recorded", decision_outcome: "approved" },
      { event_type: "decision_recorded", decision_outcome: "rejected" },
    ],
  },
];

function asc(name: string) {
  return { name, desc: false };
}
function desc(name: string) {
  return { name, desc: true };
}

/** The design's indexes: name → table and columns in order (`desc`: `created_at_ms DESC`). */
const DESIGN_INDEXES: { name: string; table: DesignTable; columns: { name: string; desc: boolean }[] }[] = [
  { name: "idx_hitl_cases_adapter_created", table: "hitl_cases", columns: [asc("adapter_id"), desc("created_at_ms")] },
  { name: "idx_hitl_cases_priority_created", table: "hitl_cases", columns: [asc("priority"), desc("created_at_ms")] },
  { name: "idx_hitl_events_case_created", table: "hitl_events", columns: [asc("case_id"), desc("created_at_ms")] },
  { name: "idx_hitl_events_type_created", table: "hitl_events", columns: [asc("event_type"), desc("created_at_ms")] },
  {
    name: "idx_hitl_events_decision_created",
    table: "hitl_events",
    columns: [asc("decision_outcome"), desc("created_at_ms")],
  },
  { name: "idx_hitl_events_request_id", table: "hitl_events", columns: [asc("request_id")] },
  {
    name: "idx_hitl_state_current_updated",
    table: "hitl_state",
    columns: [asc("current_state"), desc("updated_at_ms")],
  },
  { name: "idx_hitl_state_escalation_due", table: "hitl_state", columns: [asc("escalation_due_at_ms")] },
];

/** "Database Constraints": foreign keys (`onDelete: "r"` is ON DELETE RESTRICT). */
const DESIGN_FOREIGN_KEYS: {
  table: DesignTable;
  column: string;
  references: { table: DesignTable; column: string };
  onDeleteRestrict: boolean;
}[] = [
  {
    table: "hitl_events",
    column: "case_id",
    references: { table: "hitl_cases", column: "case_id" },
    onDeleteRestrict: true,
  },
  {
    table: "hitl_state",
    column: "case_id",
    references: { table: "hitl_cases", column: "case_id" },
    onDeleteRestrict: true,
  },
  {
    table: "hitl_case_refs",
    column: "case_id",
    references: { table: "hitl_cases", column: "case_id" },
    onDeleteRestrict: true,
  },
  {
    table: "hitl_events",
    column: "supersedes_event_id",
    references: { table: "hitl_events", column: "event_id" },
    onDeleteRestrict: false,
  },
];

// ---------------------------------------------------------------------------------------------
// Vigil's documented deviations (each asserted in its own, stricter or alternative, form)
// ---------------------------------------------------------------------------------------------

/** Column types that differ from the design's TEXT/INTEGER. */
const VIGIL_TYPES: Record<string, { type: string; why: string }> = {
  // Postgres's JSON type: validated on write, queryable by adapter fields.
  "hitl_cases.payload_json": { type: "jsonb", why: "queryable, validated JSON" },
  "hitl_schema_registry.schema_json": { type: "jsonb", why: "queryable, validated JSON" },
  // Kept as text on purpose: the RFC 8785 canonical serialization, byte for byte.
  "hitl_events.event_json": { type: "text", why: "RFC 8785 canonical bytes (not jsonb)" },
  // A real boolean instead of INTEGER 0|1: the type itself allows nothing else.
  "hitl_schema_registry.is_active": { type: "boolean", why: "boolean instead of 0|1" },
};

/** Timestamps are epoch milliseconds UTC in `bigint` (an `integer` overflows in 1970 + 24 days). */
const isEpochMs = (column: string) => column.endsWith("_ms");

/** Nullable in the design, NOT NULL in Vigil. */
const VIGIL_STRICTER_NOT_NULL: Record<string, string> = {
  "hitl_events.actor_id": "every event has a principal",
  "hitl_events.request_id": "every event has an idempotency key",
  "hitl_cases.submitter_id": "the submitting principal",
};

/** Vigil is multi-tenant: every table has its tenant (not in the design). */
const VIGIL_TENANT_COLUMN = { name: "tenant_id", type: "uuid" };

/** Extra enum values beyond the design's. */
const VIGIL_EXTRA_ENUM_VALUES: Record<string, string[]> = {
  // The SLA sweep's escalation is an event of the log too.
  "hitl_events.event_type": ["escalated"],
};

/**
 * The registry keeps one row per (adapter_id, schema_version): several versions, at most one
 * active. Its primary key is a surrogate id; the design's "one active schema version per
 * adapter_id" is a partial unique index.
 */
const VIGIL_REGISTRY_KEYS = {
  primaryKey: ["id"],
  versionUnique: ["tenant_id", "adapter_id", "schema_version"],
  oneActive: { columns: ["tenant_id", "adapter_id"], predicate: /^\(*is_active( = true)?\)*$/ },
};

// ---------------------------------------------------------------------------------------------
// The catalog
// ---------------------------------------------------------------------------------------------

interface CatalogColumn {
  table: string;
  name: string;
  dataType: string;
  isNullable: "YES" | "NO";
  columnDefault: string | null;
  /** `format_type`, for casting probe values. */
  sqlType: string;
}

interface CatalogConstraint {
  name: string;
  type: string; // c | f | p | u | …
  table: string;
  columns: string[];
  foreignTable: string | null;
  foreignColumns: string[];
  onDelete: string;
  expression: string | null;
  definition: string;
}

interface CatalogIndex {
  name: string;
  table: string;
  unique: boolean;
  columns: string[];
  descending: boolean[];
  predicate: string | null;
}

interface Catalog {
  columns: CatalogColumn[];
  constraints: CatalogConstraint[];
  indexes: CatalogIndex[];
}

async function readCatalog(database: TestDatabase): Promise<Catalog> {
  const query = async <T>(statement: SQL) => rowsOf<T>(await database.db.execute(statement));
  const tableList = sql.join(
    TABLES.map((t) => sql`${t}`),
    sql`, `,
  );
  const types = await query<{ table: string; name: string; sqlType: string }>(sql`
    select c.relname::text as "table", a.attname::text as name, format_type(a.atttypid, a.atttypmod) as "sqlType"
    from pg_attribute a join pg_class c on c.oid = a.attrelid
    where c.relnamespace = 'public'::regnamespace and c.relname in (${tableList}) and a.attnum > 0 and not a.attisdropped`);
  const columns = await query<Omit<CatalogColumn, "sqlType">>(sql`
    select table_name::text as "table", column_name::text as name, data_type::text as "dataType",
      is_nullable::text as "isNullable", column_default::text as "columnDefault"
    from information_schema.columns
    where table_schema = 'public' and table_name in (${tableList})`);
  const constraints = await query<CatalogConstraint>(sql`
    select c.conname::text as name, c.contype::text as type, t.relname::text as "table",
      ft.relname::text as "foreignTable", c.confdeltype::text as "onDelete",
      array(select a.attname::text from unnest(c.conkey) with ordinality as k(attnum, n)
        join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.attnum order by k.n) as columns,
      array(select a.attname::text from unnest(c.confkey) with ordinality as k(attnum, n)
        join pg_attribute a on a.attrelid = c.confrelid and a.attnum = k.attnum order by k.n) as "foreignColumns",
      pg_get_expr(c.conbin, c.conrelid) as expression, pg_get_constraintdef(c.oid) as definition
    from pg_constraint c join pg_class t on t.oid = c.conrelid left join pg_class ft on ft.oid = c.confrelid
    where t.relnamespace = 'public'::regnamespace and t.relname in (${tableList})`);
  const indexes = await query<CatalogIndex>(sql`
    select ic.relname::text as name, t.relname::text as "table", ix.indisunique as "unique",
      pg_get_expr(ix.indpred, ix.indrelid) as predicate,
      array(select coalesce(a.attname::text, '<expression>')
        from unnest(ix.indkey::int2[]) with ordinality as k(attnum, n)
        left join pg_attribute a on a.attrelid = ix.indrelid and a.attnum = k.attnum
        where k.n <= ix.indnkeyatts order by k.n) as columns,
      array(select (k.opt & 1) = 1 from unnest(ix.indoption::int2[]) with ordinality as k(opt, n)
        where k.n <= ix.indnkeyatts order by k.n) as descending
    from pg_index ix join pg_class ic on ic.oid = ix.indexrelid join pg_class t on t.oid = ix.indrelid
    where t.relnamespace = 'public'::regnamespace and t.relname in (${tableList})`);
  const sqlTypeOf = new Map(types.map((t) => [`${t.table}.${t.name}`, t.sqlType]));
  return {
    columns: columns.map((c) => ({ ...c, sqlType: sqlTypeOf.get(`${c.table}.${c.name}`) ?? "text" })),
    constraints,
    indexes,
  };
}

/** Strips a leading tenant_id the design does not have (Vigil's indexes lead with the tenant). */
function withoutLeadingTenant<T>(
  columns: string[],
  aligned: T[],
  design: string[],
): { columns: string[]; aligned: T[] } {
  if (columns[0] === VIGIL_TENANT_COLUMN.name && design[0] !== VIGIL_TENANT_COLUMN.name)
    return { columns: columns.slice(1), aligned: aligned.slice(1) };
  return { columns, aligned };
}

// ---------------------------------------------------------------------------------------------
// The tests
// ---------------------------------------------------------------------------------------------

for (const target of appTargets()) {
  describe(`HITL schema matches the HITL design on ${target.name}`, () => {
    let database: TestDatabase;
    let catalog: Catalog;

    beforeAll(async () => {
      // The catalog of a freshly migrated database is all these checks need: no seed data.
      database = await target.open();
      catalog = await readCatalog(database);
    });
    afterAll(async () => {
      await database?.close();
    });

    const columnOf = (table: string, name: string) => catalog.columns.find((c) => c.table === table && c.name === name);
    const checksOf = (table: string) => catalog.constraints.filter((c) => c.table === table && c.type === "c");

    /**
     * Evaluates CHECK constraints of `table` on a probe row (`values`, every other column NULL):
     * the constraint's own expression, as the database stored it. Postgres refuses a row when a
     * CHECK is false (NULL passes).
     */
    async function evaluate(
      table: string,
      values: ProbeRow,
      checks: CatalogConstraint[],
    ): Promise<{ name: string; result: boolean | null }[]> {
      const columns = catalog.columns.filter((c) => c.table === table);
      for (const name of Object.keys(values)) expect(columns.map((c) => c.name)).toContain(name);
      const probe = sql.join(
        columns.map((c) =>
          c.name in values
            ? sql`${values[c.name]}::${sql.raw(c.sqlType)} as ${sql.identifier(c.name)}`
            : sql`null::${sql.raw(c.sqlType)} as ${sql.identifier(c.name)}`,
        ),
        sql`, `,
      );
      const results: { name: string; result: boolean | null }[] = [];
      for (const check of checks) {
        const [row] = rowsOf<{ result: boolean | null }>(
          await database.db.execute(
            sql`select (${sql.raw(check.expression ?? "true")}) as result from (select ${probe}) as probe`,
          ),
        );
        results.push({ name: check.name, result: row.result });
      }
      return results;
    }

    describe("columns", () => {
      for (const table of TABLES) {
        for (const [column, design] of Object.entries(DESIGN_TABLES[table]) as [string, DesignColumn][]) {
          const key = `${table}.${column}`;
          const stricter = VIGIL_STRICTER_NOT_NULL[key];
          const expectedNullable = design.nullable && !stricter ? "YES" : "NO";
          const expectedTypes = VIGIL_TYPES[key]
            ? [VIGIL_TYPES[key].type]
            : design.kind === "TEXT"
              ? ["text"]
              : isEpochMs(column)
                ? ["bigint"]
                : ["integer", "bigint"];
          const label = `${key} (${design.kind}${design.nullable ? "" : " NOT NULL"}) is ${expectedTypes.join("|")}${
            expectedNullable === "NO" ? " NOT NULL" : " nullable"
          }${stricter ? ` (stricter: ${stricter})` : ""}`;
          it(label, () => {
            const found = columnOf(table, column);
            expect(found, `${key} is missing`).toBeDefined();
            expect(expectedTypes).toContain(found?.dataType);
            expect(found?.isNullable).toBe(expectedNullable);
          });
        }
        it(`${table}.${VIGIL_TENANT_COLUMN.name} is ${VIGIL_TENANT_COLUMN.type} NOT NULL (Vigil: multi-tenant)`, () => {
          const found = columnOf(table, VIGIL_TENANT_COLUMN.name);
          expect(found, `${table}.tenant_id is missing`).toBeDefined();
          expect(found?.dataType).toBe(VIGIL_TENANT_COLUMN.type);
          expect(found?.isNullable).toBe("NO");
        });
      }
    });

    describe("primary keys", () => {
      for (const [table, columns] of Object.entries(DESIGN_PRIMARY_KEYS)) {
        it(`${table} has primary key (${columns.join(", ")})`, () => {
          const pk = catalog.constraints.find((c) => c.table === table && c.type === "p");
          expect(pk?.columns).toEqual(columns);
        });
      }
      it(`hitl_schema_registry has a surrogate primary key (${VIGIL_REGISTRY_KEYS.primaryKey.join(", ")}) (Vigil: several versions per adapter)`, () => {
        const pk = catalog.constraints.find((c) => c.table === "hitl_schema_registry" && c.type === "p");
        expect(pk?.columns).toEqual(VIGIL_REGISTRY_KEYS.primaryKey);
      });
    });

    describe("enums are enforced by CHECK constraints", () => {
      for (const design of DESIGN_ENUMS) {
        const key = `${design.table}.${design.column}`;
        const allowed = [...design.allowed, ...(VIGIL_EXTRA_ENUM_VALUES[key] ?? [])];
        // The enum's own CHECK(s): the constraints on this column alone.
        const enumChecks = () =>
          checksOf(design.table).filter((c) => c.columns.length === 1 && c.columns[0] === design.column);

        it(`${key} has a CHECK of its own`, () => {
          expect(enumChecks().map((c) => c.name)).not.toEqual([]);
        });
        for (const value of allowed) {
          const extra = design.allowed.includes(value) ? "" : " (Vigil's extra value)";
          it(`${key} accepts '${value}'${extra}`, async () => {
            const checks = enumChecks();
            expect(checks, `no CHECK on ${key}`).not.toEqual([]);
            const refusedBy = (await evaluate(design.table, { [design.column]: value }, checks)).filter(
              (r) => r.result === false,
            );
            expect(refusedBy).toEqual([]);
          });
        }
        for (const value of design.refused) {
          it(`${key} refuses '${value}'`, async () => {
            const checks = enumChecks();
            const results = await evaluate(design.table, { [design.column]: value }, checks);
            expect(
              results.some((r) => r.result === false),
              `'${value}' passes ${JSON.stringify(results)}`,
            ).toBe(true);
          });
        }
        if (design.nullAllowed) {
          it(`${key} accepts NULL`, async () => {
            const checks = enumChecks();
            expect(checks, `no CHECK on ${key}`).not.toEqual([]);
            const refusedBy = (await evaluate(design.table, { [design.column]: null }, checks)).filter(
              (r) => r.result === false,
            );
            expect(refusedBy).toEqual([]);
            expect(columnOf(design.table, design.column)?.isNullable).toBe("YES");
          });
        }
        if (design.default !== undefined) {
          it(`${key} defaults to '${design.default}'`, () => {
            expect(columnOf(design.table, design.column)?.columnDefault).toMatch(
              new RegExp(`^'${design.default}'(::text)?$`),
            );
          });
        }
      }
    });

    describe("conditional CHECK constraints", () => {
      for (const design of DESIGN_CONDITIONAL_CHECKS) {
        // The CHECKs that involve every column of the probe (e.g. event_type and question).
        const relevantChecks = (row: ProbeRow) =>
          checksOf(design.table).filter((c) => Object.keys(row).every((column) => c.columns.includes(column)));
        for (const row of design.refuses) {
          it(`${design.rule}: refuses ${JSON.stringify(row)}`, async () => {
            const results = await evaluate(design.table, row, relevantChecks(row));
            expect(
              results.some((r) => r.result === false),
              `passes ${JSON.stringify(results)}`,
            ).toBe(true);
          });
        }
        for (const row of design.accepts) {
          it(`${design.rule}: accepts ${JSON.stringify(row)}`, async () => {
            const checks = relevantChecks(row);
            expect(checks, "no CHECK relates these columns").not.toEqual([]);
            const refusedBy = (await evaluate(design.table, row, checks)).filter((r) => r.result === false);
            expect(refusedBy).toEqual([]);
          });
        }
      }
    });

    describe("indexes", () => {
      for (const design of DESIGN_INDEXES) {
        const columns = design.columns.map((c) => `${c.name}${c.desc ? " DESC" : ""}`).join(", ");
        it(`${design.name} on ${design.table} (${columns}), optionally after tenant_id`, () => {
          const index = catalog.indexes.find((i) => i.name === design.name);
          expect(index, `${design.name} is missing`).toBeDefined();
          if (!index) return;
          expect(index.table).toBe(design.table);
          const designColumns = design.columns.map((c) => c.name);
          const found = withoutLeadingTenant(index.columns, index.descending, designColumns);
          expect(found.columns.slice(0, designColumns.length)).toEqual(designColumns);
          expect(found.aligned.slice(0, designColumns.length)).toEqual(design.columns.map((c) => c.desc));
        });
      }
    });

    describe("uniqueness", () => {
      const uniqueIndexesOf = (table: string) => catalog.indexes.filter((i) => i.table === table && i.unique);

      it("hitl_events is unique on (case_id, request_id)", () => {
        const matches = uniqueIndexesOf("hitl_events").filter((i) => {
          const { columns } = withoutLeadingTenant(i.columns, i.columns, ["case_id"]);
          const onlyNotNull = i.predicate === null || /^\(*request_id IS NOT NULL\)*$/i.test(i.predicate);
          return [...columns].sort().join(",") === "case_id,request_id" && onlyNotNull;
        });
        expect(matches.map((i) => i.name)).not.toEqual([]);
      });

      it("hitl_events allows one decision_recorded per case (partial unique index)", () => {
        const matches = uniqueIndexesOf("hitl_events").filter((i) => {
          const { columns } = withoutLeadingTenant(i.columns, i.columns, ["case_id"]);
          return (
            columns.join(",") === "case_id" &&
            i.predicate !== null &&
            /^\(*event_type = 'decision_recorded'(::text)?\)*$/.test(i.predicate)
          );
        });
        expect(matches.map((i) => i.name)).not.toEqual([]);
      });

      it(`hitl_schema_registry is unique on (${VIGIL_REGISTRY_KEYS.versionUnique.join(", ")}) (Vigil: one row per version)`, () => {
        const matches = uniqueIndexesOf("hitl_schema_registry").filter(
          (i) => i.predicate === null && i.columns.join(",") === VIGIL_REGISTRY_KEYS.versionUnique.join(","),
        );
        expect(matches.map((i) => i.name)).not.toEqual([]);
      });

      it("hitl_schema_registry has at most one active version per adapter (partial unique index)", () => {
        const { columns, predicate } = VIGIL_REGISTRY_KEYS.oneActive;
        const matches = uniqueIndexesOf("hitl_schema_registry").filter(
          (i) => i.columns.join(",") === columns.join(",") && i.predicate !== null && predicate.test(i.predicate),
        );
        expect(matches.map((i) => i.name)).not.toEqual([]);
      });
    });

    describe("foreign keys", () => {
      for (const design of DESIGN_FOREIGN_KEYS) {
        const label = `${design.table}.${design.column} → ${design.references.table}.${design.references.column}${
          design.onDeleteRestrict ? " ON DELETE RESTRICT" : ""
        }`;
        it(label, () => {
          // A composite key with the tenant ((…, tenant_id) → (…, tenant_id)) is Vigil's form of it.
          const matches = catalog.constraints.filter((c) => {
            if (c.type !== "f" || c.table !== design.table || c.foreignTable !== design.references.table) return false;
            const pairs = c.columns.map((column, i) => `${column}->${c.foreignColumns[i]}`);
            const wanted = `${design.column}->${design.references.column}`;
            const tenant = `${VIGIL_TENANT_COLUMN.name}->${VIGIL_TENANT_COLUMN.name}`;
            return pairs.includes(wanted) && pairs.every((p) => p === wanted || p === tenant);
          });
          expect(matches.map((c) => c.definition)).not.toEqual([]);
          if (design.onDeleteRestrict) for (const fk of matches) expect(fk.onDelete, fk.definition).toBe("r");
        });
      }
    });
  });
}
