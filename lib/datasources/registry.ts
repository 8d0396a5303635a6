import { randomUUID } from "node:crypto";
import { and, asc, desc, eq, ne, sql } from "drizzle-orm";
import type { z } from "zod";
import { type Db, isUniqueViolation, schema, type TenantScope, withTenant } from "@/lib/db";
import { DomainError, errors, NotFoundError } from "@/lib/errors";
import { logger } from "@/lib/log";
import type { GuardedSql } from "@/lib/sql";
import { recordTrace } from "@/lib/trace";
import { openSourceConnection } from "./connect";
import { parseConnectionTarget } from "./connection-target";
import { type SourceConnection, StatementRefusedError } from "./connector";
import type {
  AcceptRiskInput,
  CreateDataSourceInput,
  DataSourceChoice,
  DataSourceKind,
  DataSourceSummary,
  DataSourceTestResult,
  QueryResult,
} from "./contract";
import { DeadlineError, withDeadline } from "./deadline";
import { seedDemoRegistries } from "./demo-registries";
import { allowedAddress, EgressRefusedError, UnknownHostError } from "./egress-policy";
import { TEST_DEADLINE_MS, WAREHOUSE_TEST_DEADLINE_MS } from "./limits";
import { redactConnection } from "./redact";
import { openConnection, sealConnection } from "./sealed";

type Row = typeof schema.dataSources.$inferSelect;
type ParsedInput = z.output<typeof CreateDataSourceInput>;

const WAREHOUSE_CONNECTION = "warehouse://embedded";
const NAME_CONSTRAINT = "data_sources_tenant_name_uq";

/** The warehouse is in-process and read-only by construction; a network source needs proof or consent. */
const isEnabled = (row: Row) => row.kind === "warehouse" || row.readOnlyVerified || row.riskAcceptedAt !== null;

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
    enabled: isEnabled(row),
    riskAcceptedBy: row.riskAcceptedBy,
    riskAcceptedAt: row.riskAcceptedAt?.toISOString() ?? null,
    isDefault: row.isDefault,
  };
}

/**
 * What a client is told when a source cannot be reached: the same words whether the port was
 * refused or silent, the host unknown, the protocol another, the role unknown or the password
 * wrong — so Test cannot be used to scan ports or accounts. The detail goes to the server log.
 */
export const UNREACHABLE_MESSAGE =
  "Could not connect and sign in to the data source. Check the host, port, database, user name and password, and that the server accepts connections from this application.";

/** The words a caller may see for a failure to open a source; the cause is logged, not returned. */
function openFailure(error: unknown, sourceId: string): string {
  if (error instanceof EgressRefusedError) return error.message;
  const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  logger({ sourceId }).warn(`data source ${sourceId} could not be opened (${detail.slice(0, 300)})`);
  return UNREACHABLE_MESSAGE;
}

/**
 * Checks a new source's target against the connection-string rules and the egress policy before
 * it is stored. A name that does not resolve is stored (Test will say it cannot connect, in the
 * same words as for any other failure); one that resolves somewhere refused is not.
 */
async function checkTarget(input: ParsedInput): Promise<void> {
  if (input.kind === "warehouse") return;
  const parsed = parseConnectionTarget(input.kind, input.connectionString);
  if (!parsed.ok) throw errors.invalidField("connectionString", parsed.problem);
  try {
    await withDeadline("Resolving the host", 5_000, () => allowedAddress(parsed.target));
  } catch (error) {
    if (error instanceof EgressRefusedError) throw errors.invalidField("connectionString", error.message);
    if (!(error instanceof UnknownHostError || error instanceof DeadlineError)) throw error;
  }
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
  await checkTarget(input);
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

/**
 * The sources a member may pick for the Data Analyst: the enabled ones, oldest first (a source
 * added later goes to the end of the list and moves no one), without targets or test results.
 */
export async function dataSourceChoices(scope: TenantScope): Promise<DataSourceChoice[]> {
  const rows = await withTenant(scope, (tx) =>
    tx.select().from(schema.dataSources).orderBy(asc(schema.dataSources.createdAt), asc(schema.dataSources.name)),
  );
  return rows
    .filter(isEnabled)
    .map((row) => ({ id: row.id, name: row.name, kind: row.kind as DataSourceKind, isDefault: row.isDefault }));
}

/**
 * A source a member asked for by id: the tenant's (404 otherwise, whether it exists elsewhere or
 * not) and enabled (a 400 naming the field otherwise). Used before anything is written.
 */
export async function usableDataSource(
  scope: TenantScope,
  id: string,
  field = "dataSourceId",
): Promise<DataSourceChoice> {
  const row = await findRow(scope, id);
  const blocked = disabledReason(row);
  if (blocked) throw errors.invalidField(field, blocked);
  return { id: row.id, name: row.name, kind: row.kind as DataSourceKind, isDefault: row.isDefault };
}

/**
 * Makes a source the tenant's default for the Data Analyst (clearing the previous one in the
 * same transaction), or stops it being the default. Consultations that picked or were answered
 * from a source keep theirs: only consultations without one follow the default.
 */
export async function setDefaultDataSource(
  scope: TenantScope,
  id: string,
  isDefault: boolean,
): Promise<DataSourceSummary> {
  const [row] = await withTenant(scope, async (tx) => {
    const [target] = await tx.select().from(schema.dataSources).where(eq(schema.dataSources.id, id));
    if (!target) return [];
    if (isDefault) {
      await tx
        .update(schema.dataSources)
        .set({ isDefault: false })
        .where(and(eq(schema.dataSources.isDefault, true), ne(schema.dataSources.id, id)));
    }
    return tx.update(schema.dataSources).set({ isDefault }).where(eq(schema.dataSources.id, id)).returning();
  });
  if (!row) throw new NotFoundError("Data source", { id });
  return toSummary(row);
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

/** The connector's settings, the connection string unsealed (a wrong key throws here, in its own words). */
function settingsOf(row: Row) {
  return {
    kind: row.kind as DataSourceKind,
    connectionString: openConnection(row.connectionCiphertext, { tenantId: row.tenantId, sourceId: row.id }),
    allowedSchemas: row.allowedSchemas,
    rowLimit: row.rowLimit,
    statementTimeoutMs: row.statementTimeoutMs,
  };
}

/**
 * Runs `work` on an open, read-only connection to one of the tenant's sources — for the SQL
 * analyst's catalog reads and queries — and closes it after. No tenant transaction is held
 * while the source is working. A source that is not enabled (role not verified read-only, risk
 * not accepted) is refused before anything connects.
 */
export async function withSourceConnection<T>(
  scope: TenantScope,
  id: string,
  work: (connection: SourceConnection) => Promise<T>,
): Promise<T> {
  const row = await findRow(scope, id);
  const blocked = disabledReason(row);
  if (blocked) throw new DomainError("conflict", "DATA_SOURCE_DISABLED", blocked, { id });
  const settings = settingsOf(row);
  let connection: SourceConnection;
  try {
    connection = await openSourceConnection(settings);
  } catch (error) {
    throw new DomainError("unavailable", "DATA_SOURCE_UNREACHABLE", openFailure(error, row.id), { id });
  }
  try {
    return await work(connection);
  } finally {
    await connection.close();
  }
}

function disabledReason(row: Row): string | null {
  if (isEnabled(row)) return null;
  return row.lastTestedAt
    ? `The data source “${row.name}” is disabled: its last test did not verify that its role is read-only. An admin can grant the role read access only and test again, or accept the risk under Settings → Data sources.`
    : `The data source “${row.name}” is disabled until a test verifies that its role is read-only (or an admin accepts the risk) under Settings → Data sources.`;
}

/** Why the SQL analyst cannot query this source now, in words for the person asking; null if it can. */
export async function sourceDisabledReason(scope: TenantScope, id: string): Promise<string | null> {
  return disabledReason(await findRow(scope, id));
}

/** One SELECT on a source, read-only, capped at its row limit. Only the guard's output runs. */
export function querySource(
  scope: TenantScope,
  id: string,
  sql: GuardedSql,
  params: unknown[] = [],
): Promise<QueryResult> {
  return withSourceConnection(scope, id, (connection) => connection.select(sql, params));
}

/**
 * Connects and reports reachability, server version, read-only status and the schemas found,
 * and keeps the result on the source. An unreachable source is a result, not an error, and says
 * so in the same words whatever failed. A network source's test ends within TEST_DEADLINE_MS.
 */
export async function testDataSource(scope: TenantScope, id: string): Promise<DataSourceTestResult> {
  const row = await findRow(scope, id);
  const started = Date.now();
  let result: DataSourceTestResult;
  // Until the connection is open, every failure reads the same; after, the server's words are safe.
  let opened = false;
  let settings: ReturnType<typeof settingsOf> | null = null;
  try {
    settings = settingsOf(row);
    const unsealed = settings;
    const deadline = row.kind === "warehouse" ? WAREHOUSE_TEST_DEADLINE_MS : TEST_DEADLINE_MS;
    const inspection = await withDeadline("The test", deadline, async (signal) => {
      const connection = await openSourceConnection(unsealed);
      opened = true;
      const close = () => void connection.close();
      signal.addEventListener("abort", close, { once: true });
      try {
        return await connection.inspect();
      } finally {
        signal.removeEventListener("abort", close);
        await connection.close();
      }
    });
    result = { reachable: true, ...inspection, error: null, testedAt: "", durationMs: 0 };
  } catch (error) {
    result = {
      reachable: false,
      serverVersion: null,
      readOnly: { session: false, role: false, writable: [] },
      schemasFound: [],
      missingSchemas: row.allowedSchemas,
      // Once signed in, the server's own words are safe to show (without the connection string).
      error:
        // A connection string that does not unseal is the deployment's key, not the target.
        !settings || (opened && !(error instanceof DeadlineError))
          ? safeMessage(error, row)
          : openFailure(error, row.id),
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

/**
 * An admin accepts that a source's role may write (or was never verified read-only): the source
 * can be queried from now on — still in read-only transactions — and the audit trail records
 * who accepted what, with the last test's findings and the reason given.
 */
export async function acceptSourceRisk(
  scope: TenantScope & { userId: string },
  id: string,
  input: z.output<typeof AcceptRiskInput>,
): Promise<DataSourceSummary> {
  const row = await findRow(scope, id);
  if (row.kind === "warehouse") {
    throw errors.conflict(
      "DATA_SOURCE_NOT_NETWORK",
      "The embedded warehouse is read-only by construction; there is no risk to accept.",
    );
  }
  const now = new Date();
  const [updated] = await withTenant(scope, (tx) =>
    tx
      .update(schema.dataSources)
      .set({ riskAcceptedBy: scope.userId, riskAcceptedAt: now })
      .where(eq(schema.dataSources.id, id))
      .returning(),
  );
  if (!updated) throw new NotFoundError("Data source", { id });
  const lastTest = row.lastTestResult as DataSourceTestResult | null;
  await recordTrace(scope, [
    {
      eventType: "hitl_response",
      nodeName: "data_source_risk",
      userId: scope.userId,
      actorId: scope.userId,
      success: true,
      eventData: {
        action: "data_source_risk_accepted",
        sourceId: row.id,
        name: row.name,
        target: row.connectionDisplay,
        readOnlyVerified: row.readOnlyVerified,
        lastTestedAt: row.lastTestedAt?.toISOString() ?? null,
        writable: lastTest?.readOnly.writable ?? [],
        reason: input.reason,
      },
    },
  ]);
  return toSummary(updated);
}

/** A driver's message without anything of the connection string (drivers rarely echo it, but may). */
function safeMessage(error: unknown, row: Row): string {
  if (error instanceof StatementRefusedError) return error.message;
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
