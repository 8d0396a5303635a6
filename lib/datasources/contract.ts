// The data sources' client-safe contract: what the admin page sends and reads, and what a SELECT
// on a source returns. The connection string goes in and never comes back out.
import { z } from "zod";
import type { JoinGraph, JoinGraphOverrides } from "@/lib/joingraph/contract";
import type { DisplayRegistry, DomainRegistry } from "@/lib/ontology/contract";
import { parseConnectionTarget } from "./connection-target";

export const DATA_SOURCE_KINDS = ["postgres", "mysql", "warehouse"] as const;
export type DataSourceKind = (typeof DATA_SOURCE_KINDS)[number];

export const DEFAULT_ROW_LIMIT = 1000;
export const DEFAULT_STATEMENT_TIMEOUT_MS = 5000;

/** A PostgreSQL schema or MySQL database name, unquoted. */
const SchemaName = z
  .string()
  .trim()
  .regex(/^[A-Za-z_][A-Za-z0-9_$]{0,62}$/, "Use a plain schema name: letters, digits, _ and $.");

export const CreateDataSourceInput = z
  .object({
    name: z.string().trim().min(1).max(100),
    kind: z.enum(DATA_SOURCE_KINDS),
    /** `postgres://user:password@host:5432/db`, `mysql://…`; not needed for the warehouse. */
    connectionString: z.string().trim().max(2000).optional(),
    allowedSchemas: z.array(SchemaName).min(1).max(50),
    rowLimit: z.number().int().min(1).max(100_000).default(DEFAULT_ROW_LIMIT),
    statementTimeoutMs: z.number().int().min(100).max(600_000).default(DEFAULT_STATEMENT_TIMEOUT_MS),
  })
  .strict()
  .superRefine((input, ctx) => {
    if (input.kind === "warehouse") {
      if (input.connectionString && !input.connectionString.startsWith("warehouse:")) {
        ctx.addIssue({
          code: "custom",
          path: ["connectionString"],
          message: "The warehouse takes no connection string.",
        });
      }
      return;
    }
    const problem = connectionProblem(input.kind, input.connectionString);
    if (problem) ctx.addIssue({ code: "custom", path: ["connectionString"], message: problem });
  });
export type CreateDataSourceInput = z.input<typeof CreateDataSourceInput>;

function connectionProblem(kind: "postgres" | "mysql", value: string | undefined): string | null {
  const parsed = parseConnectionTarget(kind, value);
  return parsed.ok ? null : parsed.problem;
}

/** Accepting the risk of a role that may write: stated, with a reason the audit trail keeps. */
export const AcceptRiskInput = z.strictObject({
  accept: z.literal(true),
  reason: z.string().trim().min(1).max(500),
});
export type AcceptRiskInput = z.input<typeof AcceptRiskInput>;

/** What a test found; also kept as the source's `lastTestResult`. */
export interface DataSourceTestResult {
  reachable: boolean;
  serverVersion: string | null;
  readOnly: {
    /** Every query runs in a read-only transaction (always, once connected). */
    session: boolean;
    /** The role itself cannot write to the allowed schemas. */
    role: boolean;
    /** What made the role writable: privileges or objects, for the admin to revoke. */
    writable: string[];
  };
  schemasFound: string[];
  missingSchemas: string[];
  /** Why the test failed, in words safe to show (no connection string). */
  error: string | null;
  testedAt: string;
  durationMs: number;
}

export interface DataSourceSummary {
  id: string;
  name: string;
  kind: DataSourceKind;
  /** The target without credentials: `host:port/database`. */
  target: string;
  allowedSchemas: string[];
  rowLimit: number;
  statementTimeoutMs: number;
  createdBy: string;
  createdAt: string;
  lastTestedAt: string | null;
  lastTestResult: DataSourceTestResult | null;
  readOnlyVerified: boolean;
  /**
   * Whether the SQL analyst may query it: the embedded warehouse always; a network source once a
   * test verified its role read-only, or an admin accepted the risk.
   */
  enabled: boolean;
  riskAcceptedBy: string | null;
  riskAcceptedAt: string | null;
  /** The tenant's default for the Data Analyst: a consultation that picked no source asks this one. */
  isDefault: boolean;
}

/** `PUT /api/datasources/{id}`: what an admin may change on a registered source. */
export const UpdateDataSourceInput = z.strictObject({
  /** Make this the tenant's default source (the previous default stops being it), or stop. */
  isDefault: z.boolean(),
});
export type UpdateDataSourceInput = z.input<typeof UpdateDataSourceInput>;

/**
 * A source as a member picks it in the chat (`GET /api/datasources/choices`): no target, no
 * test results, only what the picker shows.
 */
export interface DataSourceChoice {
  id: string;
  name: string;
  kind: DataSourceKind;
  isDefault: boolean;
}

/** One SELECT's answer: rows as arrays aligned with `columns` (names may repeat), capped at the row limit. */
export interface QueryResult {
  columns: string[];
  rows: unknown[][];
  truncated: boolean;
}

// ── The SQL analyst's settings per source: join graph versions and registries ──────────────

/** The registries a source keeps per schema (the design's two JSON files). */
export const REGISTRY_KINDS = ["domain", "display"] as const;
export const RegistryKind = z.enum(REGISTRY_KINDS);
export type RegistryKind = z.infer<typeof RegistryKind>;

/** A route's `{schema}`: one of the source's allowed schemas, spelled as when it was allowed. */
export const RegistrySchemaName = SchemaName;

/** Where a document is wrong and why, as the editors show it: `add_relationships[0].to_table`. */
export interface DocumentIssue {
  path: string;
  message: string;
}

/** One stored version of a source's join graph. */
export interface JoinGraphVersionView {
  sourceId: string;
  /** 1, 2, … per source. */
  version: number;
  /** The graph's content hash (`graphVersionHash`). */
  graphHash: string;
  /** The introspected graph with the overrides applied. */
  graph: JoinGraph;
  /** The overrides in force for this version. */
  overrides: JoinGraphOverrides;
  /** Overrides that named something the graph does not have; skipped, not fatal. */
  problems: DocumentIssue[];
  createdBy: string;
  createdAt: string;
}

/** A line of the version history. */
export interface JoinGraphVersionSummary {
  version: number;
  graphHash: string;
  tables: number;
  relationships: number;
  problems: number;
  createdBy: string;
  createdAt: string;
}

/** When and by whom a stored registry was last written. */
export interface RegistryStamp {
  kind: RegistryKind;
  schema: string;
  updatedBy: string;
  updatedAt: string;
}

/** A registry as stored, with its stamp (what saving one answers). */
export interface SavedRegistry extends RegistryStamp {
  registry: DomainRegistry | DisplayRegistry;
}

/** A source's registries, keyed by schema. */
export interface SourceRegistries {
  domain: Record<string, DomainRegistry>;
  display: Record<string, DisplayRegistry>;
}

/** What the registries page reads: the registries, the schemas they may describe, and who wrote them. */
export interface SourceRegistriesView extends SourceRegistries {
  schemas: string[];
  stamps: RegistryStamp[];
}
