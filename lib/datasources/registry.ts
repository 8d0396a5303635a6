import { randomUUID } from "node:crypto";
import { and, desc, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { type Db, isUniqueViolation, schema, type TenantScope, withTenant } from "@/lib/db";
import { errors, NotFoundError } from "@/lib/errors";
import { openSourceConnection } from "./connect";
import type { SourceConnection } from "./connector";
import type {
  CreateDataSourceInput,
  DataSourceKind,
  DataSourceSummary,
  DataSourceTestResult,
  QueryResult,
} from "./contract";
import { seedDemoRegistries } from "./demo-registries";
import { redactConnection } from "./redact";
import { openConnection, sealConnection } from "./sealed";

type Row = typeof schema.dataSources.$inferSelect;
type ParsedInput = z.output<typeof CreateDataSourceInput>;

const WAREHOUSE_CONNECTION = "warehouse://embedded";
const NAME_CONSTRAINT = "data_sources_tenant_name_uq";

function toSummary(row: Row): DataSourceSummary {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind as DataSourceKind,
    target: row.connectionDisplay,
    allowedSchemas: row.allowedSchemas,
    rowLimit: row.rowLimit,
    statementTimeoutMs: row.statementTimeoutMs,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    lastTestedAt: row.lastTestedAt?.toISOString() ?? null,
    lastTestResult: (row.lastTestResult as DataSourceTestResult | null) ?? null,
    readOnlyVerified: row.readOnlyVerified,
  };
}

function newRow(tenantId: string, input: ParsedInput, createdBy: string): typeof schema.dataSources.$inferInsert {
  const id = randomUUID();
  const connection = input.kind === "warehouse" ? WAREHOUSE_CONNECTION : (input.connectionString as string);
  return {
    id,
    tenantId,
    name: input.name,
    kind: input.kind,
    connectionCiphertext: sealConnection(connection, { tenantId, sourceId: id }),
    connectionDisplay: redactConnection(input.kind, connection),
    allowedSchemas: [...new Set(input.allowedSchemas)],
    rowLimit: input.rowLimit,
    statementTimeoutMs: input.statementTimeoutMs,
    createdBy,
  };
}

/** Registers a source; its connection string is sealed before it reaches the database. */
export async function createDataSource(
  scope: TenantScope,
  input: ParsedInput,
  createdBy: string,
): Promise<DataSourceSummary> {
  try {
    const [row] = await withTenant(scope, (tx) =>
      tx
        .insert(schema.dataSources)
        .values(newRow(scope.tenantId, input, createdBy))
        .returning(),
    );
    return toSummary(row);
  } catch (error) {
    if (isUniqueViolation(error, NAME_CONSTRAINT)) {
      throw errors.conflict("DATA_SOURCE_NAME_TAKEN", `A data source named “${input.name}” already exists.`);
    }
    throw error;
  }
}

export async function listDataSources(scope: TenantScope): Promise<DataSourceSummary[]> {
  const rows = await withTenant(scope, (tx) =>
    tx.select().from(schema.dataSources).orderBy(desc(schema.dataSources.createdAt)).limit(200),
  );
  return rows.map(toSummary);
}

async function findRow(scope: TenantScope, id: string): Promise<Row> {
  const [row] = await withTenant(scope, (tx) =>
    tx.select().from(schema.dataSources).where(eq(schema.dataSources.id, id)),
  );
  if (!row) throw new NotFoundError("Data source", { id });
  return row;
}

export async function getDataSource(scope: TenantScope, id: string): Promise<DataSourceSummary> {
  return toSummary(await findRow(scope, id));
}

export async function removeDataSource(scope: TenantScope, id: string): Promise<DataSourceSummary> {
  const [row] = await withTenant(scope, (tx) =>
    tx.delete(schema.dataSources).where(eq(schema.dataSources.id, id)).returning(),
  );
  if (!row) throw new NotFoundError("Data source", { id });
  return toSummary(row);
}

function open(row: Row): Promise<SourceConnection> {
  return openSourceConnection({
    kind: row.kind as DataSourceKind,
    connectionString: openConnection(row.connectionCiphertext, { tenantId: row.tenantId, sourceId: row.id }),
    allowedSchemas: row.allowedSchemas,
    rowLimit: row.rowLimit,
    statementTimeoutMs: row.statementTimeoutMs,
  });
}

/**
 * Runs `work` on an open, read-only connection to one of the tenant's sources — for the SQL
 * analyst's catalog reads and queries — and closes it after. No tenant transaction is held
 * while the source is working.
 */
export async function withSourceConnection<T>(
  scope: TenantScope,
  id: string,
  work: (connection: SourceConnection) => Promise<T>,
): Promise<T> {
  const connection = await open(await findRow(scope, id));
  try {
    return await work(connection);
  } finally {
    await connection.close();
  }
}

/** One SELECT on a source, read-only, capped at its row limit. */
export function querySource(scope: TenantScope, id: string, sql: string, params: unknown[] = []): Promise<QueryResult> {
  return withSourceConnection(scope, id, (connection) => connection.select(sql, params));
}

/**
 * Connects and reports reachability, server version, read-only status and the schemas found,
 * and keeps the result on the source. An unreachable source is a result, not an error.
 */
export async function testDataSource(scope: TenantScope, id: string): Promise<DataSourceTestResult> {
  const row = await findRow(scope, id);
  const started = Date.now();
  let result: DataSourceTestResult;
  try {
    const connection = await open(row);
    try {
      const inspection = await connection.inspect();
      result = { reachable: true, ...inspection, error: null, testedAt: "", durationMs: 0 };
    } finally {
      await connection.close();
    }
  } catch (error) {
    result = {
      reachable: false,
      serverVersion: null,
      readOnly: { session: false, role: false, writable: [] },
      schemasFound: [],
      missingSchemas: row.allowedSchemas,
      error: safeMessage(error, row),
      testedAt: "",
      durationMs: 0,
    };
  }
  const testedAt = new Date();
  result = { ...result, testedAt: testedAt.toISOString(), durationMs: Date.now() - started };
  const verified = result.reachable && result.readOnly.session && result.readOnly.role;
  await withTenant(scope, (tx) =>
    tx
      .update(schema.dataSources)
      .set({ lastTestedAt: testedAt, lastTestResult: result, readOnlyVerified: verified })
      .where(eq(schema.dataSources.id, id)),
  );
  return result;
}

/** A driver's message without anything of the connection string (drivers rarely echo it, but may). */
function safeMessage(error: unknown, row: Row): string {
  let message = error instanceof Error ? error.message : String(error);
  try {
    const url = new URL(openConnection(row.connectionCiphertext, { tenantId: row.tenantId, sourceId: row.id }));
    for (const secret of [url.href, url.password, decodeURIComponent(url.password)]) {
      if (secret) message = message.split(secret).join("***");
    }
  } catch {
    // The string did not unseal or parse: the message cannot contain it.
  }
  return message.slice(0, 500) || "The source could not be reached.";
}

/**
 * Registers the embedded demo warehouse for a tenant that has no data source yet (the seed, on
 * the owner connection), with the demo domain and display registries of its three schemas. Removing every source of a demo tenant brings it back at the next start.
 */
export async function registerDemoWarehouse(db: Db, tenantId: string): Promise<boolean> {
  const [existing] = await db
    .select({ id: schema.dataSources.id })
    .from(schema.dataSources)
    .where(eq(schema.dataSources.tenantId, tenantId))
    .limit(1);
  if (existing) {
    await backfillDemoRegistries(db, tenantId);
    return false;
  }
  const row = newRow(
    tenantId,
    {
      name: "Demo warehouse",
      kind: "warehouse",
      allowedSchemas: ["northwind", "chinook", "pagila"],
      rowLimit: 1000,
      statementTimeoutMs: 5000,
    },
    "seed",
  );
  await db.transaction(async (tx) => {
    await tx.insert(schema.dataSources).values(row);
    await seedDemoRegistries(tx, tenantId, row.id as string);
  });
  return true;
}

/** A warehouse registered before registries were stored gets the demo ones, once (none stored yet). */
async function backfillDemoRegistries(db: Db, tenantId: string): Promise<void> {
  const bare = await db
    .select({ id: schema.dataSources.id })
    .from(schema.dataSources)
    .where(
      and(
        eq(schema.dataSources.tenantId, tenantId),
        eq(schema.dataSources.kind, "warehouse"),
        sql`not exists (select 1 from ${schema.sqlRegistries} r where r.source_id = ${schema.dataSources.id})`,
      ),
    );
  for (const source of bare) await seedDemoRegistries(db, tenantId, source.id);
}
