// Catalog queries shared by the PostgreSQL and warehouse connectors; `$1` is the allowed schemas.
import type { CatalogForeignKey, SourceCatalog } from "./connector";

/**
 * What the current role could change in the allowed schemas: superuser, CREATE on a schema, or
 * INSERT/UPDATE/DELETE/TRUNCATE on a relation (owners hold all four). Empty means read-only.
 */
export const PG_WRITABLE_SQL = `
  select 'superuser role ' || quote_ident(current_user) as what
    from pg_roles where rolname = current_user and rolsuper
  union all
  select 'CREATE on schema ' || s from unnest($1::text[]) s
    where exists (select 1 from pg_namespace where nspname = s) and has_schema_privilege(s, 'CREATE')
  union all
  (select x.privileges || ' on ' || n.nspname || '.' || c.relname
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
     cross join lateral (
       select string_agg(p, ', ') as privileges
         from unnest(array['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE']) p where has_table_privilege(c.oid, p)
     ) x
    where n.nspname = any($1::text[]) and c.relkind in ('r', 'p', 'v', 'm', 'f') and x.privileges is not null
    order by 1 limit 50)`;

export const PG_SCHEMAS_SQL =
  "select nspname::text as name from pg_namespace where nspname = any($1::text[]) order by 1";

export const PG_TABLES_SQL = `
  select table_schema::text, table_name::text, table_type::text from information_schema.tables
   where table_schema = any($1::text[]) order by 1, 2`;

export const PG_COLUMNS_SQL = `
  select table_schema::text, table_name::text, column_name::text,
         case when data_type in ('USER-DEFINED', 'ARRAY') then udt_name::text else data_type::text end,
         is_nullable = 'YES'
    from information_schema.columns where table_schema = any($1::text[])
   order by table_schema, table_name, ordinal_position`;

export const PG_FOREIGN_KEYS_SQL = `
  select n.nspname::text, c.relname::text,
         array(select a.attname::text from unnest(k.conkey) with ordinality u(num, i)
                 join pg_attribute a on a.attrelid = k.conrelid and a.attnum = u.num order by u.i),
         rn.nspname::text, rc.relname::text,
         array(select a.attname::text from unnest(k.confkey) with ordinality u(num, i)
                 join pg_attribute a on a.attrelid = k.confrelid and a.attnum = u.num order by u.i)
    from pg_constraint k
    join pg_class c on c.oid = k.conrelid join pg_namespace n on n.oid = c.relnamespace
    join pg_class rc on rc.oid = k.confrelid join pg_namespace rn on rn.oid = rc.relnamespace
   where k.contype = 'f' and k.conparentid = 0 and n.nspname = any($1::text[])
     and has_table_privilege(c.oid, 'SELECT') and has_table_privilege(rc.oid, 'SELECT')
   order by 1, 2, k.conname`;

/** The catalog from the three queries' rows (arrays, in the column order above). */
export function catalogFromRows(tables: unknown[][], columns: unknown[][], keys: unknown[][]): SourceCatalog {
  return {
    tables: tables.map(([schema, table, type]) => ({
      schema: String(schema),
      table: String(table),
      kind: String(type).includes("VIEW") ? ("view" as const) : ("table" as const),
    })),
    columns: columns.map(([schema, table, column, dataType, nullable]) => ({
      schema: String(schema),
      table: String(table),
      column: String(column),
      dataType: String(dataType),
      nullable: Boolean(nullable),
    })),
    foreignKeys: keys.map(
      ([schema, table, cols, refSchema, refTable, refCols]): CatalogForeignKey => ({
        schema: String(schema),
        table: String(table),
        columns: cols as string[],
        refSchema: String(refSchema),
        refTable: String(refTable),
        refColumns: refCols as string[],
      }),
    ),
  };
}
