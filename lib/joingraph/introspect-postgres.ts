import { type CatalogClient, type CatalogTable, nullableText, type SchemaCatalog, stringList, text } from "./catalog";

// pg_catalog rather than information_schema: it names composite keys' columns in key order, shows
// unique indexes that are not constraints, and reads the planner's row estimate. The schema list
// travels as one JSON text parameter so every driver binds it the same way (array parameters
// are serialised differently by postgres-js, PGlite and pg). It is cast from text: postgres-js
// would serialise a string bound to a json parameter once more, into a JSON string.

const IN_SCHEMAS = "n.nspname in (select json_array_elements_text($1::text::json))";

const TABLES = `
select n.nspname as schema_name, c.relname as table_name,
       obj_description(c.oid, 'pg_class') as comment,
       c.reltuples::float8 as row_estimate
from pg_class c
join pg_namespace n on n.oid = c.relnamespace
where c.relkind in ('r', 'p') and not c.relispartition and ${IN_SCHEMAS}
order by 1, 2`;

const COLUMNS = `
select n.nspname as schema_name, c.relname as table_name, a.attname as column_name,
       format_type(a.atttypid, a.atttypmod) as data_type, not a.attnotnull as nullable,
       col_description(c.oid, a.attnum) as comment
from pg_attribute a
join pg_class c on c.oid = a.attrelid
join pg_namespace n on n.oid = c.relnamespace
where c.relkind in ('r', 'p') and not c.relispartition and a.attnum > 0 and not a.attisdropped and ${IN_SCHEMAS}
order by 1, 2, a.attnum`;

// Unique indexes cover primary keys and unique constraints too. Partial and expression indexes
// are left out: they do not make a column unique for every row.
const UNIQUE_KEYS = `
select n.nspname as schema_name, c.relname as table_name, i.indisprimary as is_primary,
       (select json_agg(a.attname order by k.ord)::text
          from unnest(i.indkey::int2[]) with ordinality k(attnum, ord)
          join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum) as columns
from pg_index i
join pg_class c on c.oid = i.indrelid
join pg_namespace n on n.oid = c.relnamespace
where i.indisunique and i.indpred is null and 0 <> all (i.indkey::int2[]) and ${IN_SCHEMAS}
order by 1, 2, i.indisprimary desc, 4`;

const FOREIGN_KEYS = `
select n.nspname as schema_name, c.relname as table_name, con.conname as constraint_name,
       rn.nspname as ref_schema, rc.relname as ref_table,
       (select json_agg(a.attname order by k.ord)::text
          from unnest(con.conkey) with ordinality k(attnum, ord)
          join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.attnum) as columns,
       (select json_agg(a.attname order by k.ord)::text
          from unnest(con.confkey) with ordinality k(attnum, ord)
          join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.attnum) as ref_columns
from pg_constraint con
join pg_class c on c.oid = con.conrelid
join pg_namespace n on n.oid = c.relnamespace
join pg_class rc on rc.oid = con.confrelid
join pg_namespace rn on rn.oid = rc.relnamespace
where con.contype = 'f' and ${IN_SCHEMAS}
order by 1, 2, 3`;

// The planner's statistics, for tables that declare no key (common in dumps without constraints):
// n_distinct = -1 means every row has its own value. Only rows the role may read are listed.
const UNIQUE_BY_STATISTICS = `
select s.schemaname as schema_name, s.tablename as table_name, s.attname as column_name
from pg_stats s
join pg_namespace n on n.nspname = s.schemaname
where s.n_distinct = -1 and s.null_frac = 0 and not s.inherited and ${IN_SCHEMAS}
order by 1, 2, 3`;

export interface PostgresIntrospectionOptions {
  /** Schemas to read; `public` when left out. */
  schemas?: string[];
}

/** Reads tables, columns, comments, keys and row estimates of the given schemas. */
export async function introspectPostgres(
  client: CatalogClient,
  options: PostgresIntrospectionOptions = {},
): Promise<SchemaCatalog> {
  const params = [JSON.stringify(options.schemas ?? ["public"])];
  const [tables, columns, uniques, fks] = [
    await client.query(TABLES, params),
    await client.query(COLUMNS, params),
    await client.query(UNIQUE_KEYS, params),
    await client.query(FOREIGN_KEYS, params),
  ];
  // Statistics are a hint: a server that hides them (or a copy never analysed) gives none.
  const stats = await client.query(UNIQUE_BY_STATISTICS, params).catch(() => []);
  const byKey = new Map<string, CatalogTable>();
  const key = (row: Record<string, unknown>) => `${text(row.schema_name)}\u0000${text(row.table_name)}`;
  for (const row of tables) {
    const estimate = Number(row.row_estimate);
    byKey.set(key(row), {
      schema: text(row.schema_name),
      name: text(row.table_name),
      comment: nullableText(row.comment),
      // reltuples is -1 until the table is first vacuumed or analysed (PostgreSQL 14+).
      row_estimate: Number.isFinite(estimate) && estimate >= 0 ? Math.round(estimate) : null,
      columns: [],
      primary_key: [],
      unique_keys: [],
      foreign_keys: [],
    });
  }
  for (const row of columns) {
    byKey.get(key(row))?.columns.push({
      name: text(row.column_name),
      data_type: text(row.data_type),
      nullable: row.nullable === true || row.nullable === "t",
      comment: nullableText(row.comment),
    });
  }
  for (const row of uniques) {
    const table = byKey.get(key(row));
    if (!table) continue;
    const cols = stringList(row.columns);
    if (row.is_primary === true || row.is_primary === "t") table.primary_key = cols;
    table.unique_keys.push(cols);
  }
  for (const row of fks) {
    byKey.get(key(row))?.foreign_keys.push({
      name: text(row.constraint_name),
      columns: stringList(row.columns),
      ref_schema: text(row.ref_schema),
      ref_table: text(row.ref_table),
      ref_columns: stringList(row.ref_columns),
    });
  }
  for (const row of stats) {
    const table = byKey.get(key(row));
    if (table) table.unique_by_statistics = [...(table.unique_by_statistics ?? []), text(row.column_name)];
  }
  return { dialect: "postgres", tables: [...byKey.values()] };
}
