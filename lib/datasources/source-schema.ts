import type { TenantScope } from "@/lib/db";
import { DomainError, NotFoundError } from "@/lib/errors";
import type { SchemaCatalog } from "@/lib/joingraph";
import { logger } from "@/lib/log";
import type { SqlCatalog } from "@/lib/sql";
import type { SourceCatalog } from "./connector";
import { withSourceConnection } from "./registry";

// What the settings pages read of a source's schema: its introspection (the join graph's
// input) and, for checking registries, the tables and views a statement may name.

export interface SourceSchemaRead {
  introspected: SchemaCatalog;
  catalog: SourceCatalog | null;
}

/**
 * Reads the source once. A source that cannot be reached (down, wrong password, the warehouse
 * datasets missing) is a 503 the admin can act on, never a 500; the driver's words stay in the
 * server log without the connection string, which drivers may echo.
 */
export async function readSourceSchema(
  scope: TenantScope,
  sourceId: string,
  options: { catalog: boolean },
): Promise<SourceSchemaRead> {
  try {
    return await withSourceConnection(scope, sourceId, async (c) => ({
      introspected: await c.introspect(),
      catalog: options.catalog ? await c.catalog() : null,
    }));
  } catch (error) {
    if (error instanceof NotFoundError || error instanceof DomainError) throw error;
    const code = (error as { code?: unknown }).code;
    logger({ sourceId }).warn(
      `data source ${sourceId} could not be read${typeof code === "string" ? ` (${code})` : ""}`,
    );
    throw new DomainError(
      "unavailable",
      "DATA_SOURCE_UNREACHABLE",
      "The data source could not be read right now. Test it on the data sources page.",
    );
  }
}

/** A table as the join graph and introspection both describe one. */
interface PlannedTable {
  schema: string;
  name: string;
  columns: readonly { name: string; data_type: string }[];
}

/**
 * The tables a registry or a planned statement may name: the given tables (introspection's or
 * the join graph's; the analyst plans joins on base tables and the SQL guard puts a table's
 * secure view in its place) and every table or view the source's role can read, each with its
 * columns; one schema's, or every allowed schema's.
 */
export function statementCatalog(
  planned: readonly PlannedTable[],
  catalog: SourceCatalog | null,
  schemaName?: string,
): SqlCatalog {
  const inSchema = (schema: string) => schemaName === undefined || schema === schemaName;
  const tables = new Map<string, SqlCatalog["tables"][number]>();
  for (const t of planned) {
    if (!inSchema(t.schema)) continue;
    tables.set(`${t.schema}.${t.name}`, {
      schema: t.schema,
      name: t.name,
      columns: t.columns.map((c) => ({ name: c.name, dataType: c.data_type })),
    });
  }
  for (const t of catalog?.tables ?? []) {
    const key = `${t.schema}.${t.table}`;
    if (!inSchema(t.schema) || tables.has(key)) continue;
    const columns = (catalog?.columns ?? [])
      .filter((c) => c.schema === t.schema && c.table === t.table)
      .map((c) => ({ name: c.column, dataType: c.dataType }));
    tables.set(key, { schema: t.schema, name: t.table, columns });
  }
  return { tables: [...tables.values()] };
}
