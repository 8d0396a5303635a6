import { sql } from "drizzle-orm";
import { boolean, check, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { tenantRef } from "./tenancy";

// The business databases a tenant lets its SQL analyst read. The connection string is stored
// only sealed (AES-256-GCM, lib/datasources); `connection_display` is its redacted form, kept so
// that listing sources never needs the key.

const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

export const dataSources = pgTable(
  "data_sources",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    name: text("name").notNull(),
    /** `postgres`, `mysql` (MySQL or MariaDB) or `warehouse` (the embedded demo warehouse). */
    kind: text("kind").notNull(),
    /** `v1.<iv>.<tag>.<ciphertext>`, base64url; the tenant and row id are its associated data. */
    connectionCiphertext: text("connection_ciphertext").notNull(),
    /** The target without credentials: `host:port/database`. */
    connectionDisplay: text("connection_display").notNull(),
    allowedSchemas: text("allowed_schemas").array().notNull().default(sql`'{}'::text[]`),
    rowLimit: integer("row_limit").notNull().default(1000),
    statementTimeoutMs: integer("statement_timeout_ms").notNull().default(5000),
    createdBy: text("created_by").notNull(),
    createdAt: at("created_at").notNull().defaultNow(),
    lastTestedAt: at("last_tested_at"),
    lastTestResult: jsonb("last_test_result"),
    /** The last test found the role unable to write (not merely the session read-only). */
    readOnlyVerified: boolean("read_only_verified").notNull().default(false),
    /**
     * An admin accepted that the role may not be read-only: until then (or a test that verifies
     * it), the source cannot be queried. Who and when; cleared only by removing the source.
     */
    riskAcceptedBy: text("risk_accepted_by"),
    riskAcceptedAt: at("risk_accepted_at"),
    /**
     * The tenant's default source for the Data Analyst, set by an admin: a consultation that has
     * not picked one uses it. At most one per tenant (the partial unique index below).
     */
    isDefault: boolean("is_default").notNull().default(false),
  },
  (t) => [
    uniqueIndex("data_sources_tenant_name_uq").on(t.tenantId, t.name),
    // The target of the composite keys of the SQL analyst's settings (sql-sources.ts).
    uniqueIndex("data_sources_tenant_uq").on(t.id, t.tenantId),
    uniqueIndex("data_sources_tenant_default_uq").on(t.tenantId).where(sql`${t.isDefault}`),
    check("data_sources_kind_check", sql`${t.kind} in ('postgres', 'mysql', 'warehouse')`),
    check("data_sources_row_limit_check", sql`${t.rowLimit} between 1 and 100000`),
    check("data_sources_timeout_check", sql`${t.statementTimeoutMs} between 100 and 600000`),
  ],
);
