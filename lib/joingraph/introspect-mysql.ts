import { type CatalogClient, type CatalogTable, nullableText, type SchemaCatalog, text } from "./catalog";

// information_schema, which MySQL and MariaDB share. Every column is aliased in lower case:
// MySQL 8 returns information_schema's own names in upper case, MariaDB as written.

const TABLES = `
select TABLE_SCHEMA as schema_name, TABLE_NAME as table_name, TABLE_COMMENT as comment, TABLE_ROWS as row_estimate
from information_schema.TABLES
where TABLE_SCHEMA = ? and TABLE_TYPE = 'BASE TABLE'
order by TABLE_NAME`;

const COLUMNS = `
select TABLE_NAME as table_name, COLUMN_NAME as column_name, COLUMN_TYPE as data_type,
       IS_NULLABLE as nullable, COLUMN_COMMENT as comment
from information_schema.COLUMNS
where TABLE_SCHEMA = ?
order by TABLE_NAME, ORDINAL_POSITION`;

// One row per key column. Unique indexes appear here as UNIQUE constraints; FK rows carry the
// referenced column of the same position.
const KEY_COLUMNS = `
select tc.TABLE_NAME as table_name, tc.CONSTRAINT_NAME as constraint_name, tc.CONSTRAINT_TYPE as constraint_type,
       k.COLUMN_NAME as column_name, k.REFERENCED_TABLE_SCHEMA as ref_schema,
       k.REFERENCED_TABLE_NAME as ref_table, k.REFERENCED_COLUMN_NAME as ref_column
from information_schema.TABLE_CONSTRAINTS tc
join information_schema.KEY_COLUMN_USAGE k
  on k.CONSTRAINT_SCHEMA = tc.CONSTRAINT_SCHEMA and k.CONSTRAINT_NAME = tc.CONSTRAINT_NAME
 and k.TABLE_SCHEMA = tc.TABLE_SCHEMA and k.TABLE_NAME = tc.TABLE_NAME
where tc.TABLE_SCHEMA = ? and tc.CONSTRAINT_TYPE in ('PRIMARY KEY', 'UNIQUE', 'FOREIGN KEY')
order by tc.TABLE_NAME, tc.CONSTRAINT_NAME, k.ORDINAL_POSITION`;

export interface MysqlIntrospectionOptions {
  /** The database (MySQL's schema) to read; the connection's current one when left out. */
  database?: string;
}

/** Reads tables, columns, comments, keys and row estimates of one MySQL/MariaDB database. */
export async function introspectMysql(
  client: CatalogClient,
  options: MysqlIntrospectionOptions = {},
): Promise<SchemaCatalog> {
  const database = options.database ?? text((await client.query("select database() as name"))[0]?.name);
  if (!database) throw new Error("introspectMysql: no database given and the connection has none selected");
  const params = [database];
  const tables = await client.query(TABLES, params);
  const columns = await client.query(COLUMNS, params);
  const keyColumns = await client.query(KEY_COLUMNS, params);

  const byName = new Map<string, CatalogTable>();
  for (const row of tables) {
    // TABLE_ROWS is InnoDB's sampled estimate; null for engines that keep none.
    const estimate = row.row_estimate === null ? Number.NaN : Number(row.row_estimate);
    byName.set(text(row.table_name), {
      schema: database,
      name: text(row.table_name),
      comment: nullableText(row.comment),
      row_estimate: Number.isFinite(estimate) ? estimate : null,
      columns: [],
      primary_key: [],
      unique_keys: [],
      foreign_keys: [],
    });
  }
  for (const row of columns) {
    byName.get(text(row.table_name))?.columns.push({
      name: text(row.column_name),
      data_type: text(row.data_type),
      nullable: text(row.nullable) === "YES",
      comment: nullableText(row.comment),
    });
  }

  // Rows come grouped by constraint in key order; fold each group into one key.
  const groups = new Map<string, { table: CatalogTable; type: string; rows: Record<string, unknown>[] }>();
  for (const row of keyColumns) {
    const table = byName.get(text(row.table_name));
    if (!table) continue;
    const id = `${table.name}\u0000${text(row.constraint_name)}`;
    const group = groups.get(id) ?? { table, type: text(row.constraint_type), rows: [] };
    group.rows.push(row);
    groups.set(id, group);
  }
  for (const [id, { table, type, rows }] of groups) {
    const cols = rows.map((r) => text(r.column_name));
    if (type === "FOREIGN KEY") {
      table.foreign_keys.push({
        name: id.split("\u0000")[1],
        columns: cols,
        ref_schema: text(rows[0].ref_schema) || database,
        ref_table: text(rows[0].ref_table),
        ref_columns: rows.map((r) => text(r.ref_column)),
      });
      continue;
    }
    if (type === "PRIMARY KEY") table.primary_key = cols;
    table.unique_keys.push(cols);
  }
  for (const table of byName.values()) {
    // The primary key first, as PostgreSQL's introspection returns it.
    table.unique_keys.sort((a, b) => Number(b === table.primary_key) - Number(a === table.primary_key));
  }
  return { dialect: "mysql", tables: [...byName.values()] };
}
