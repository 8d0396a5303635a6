import { eq, sql } from "drizzle-orm";
import { schema, type TenantScope, withTenant } from "@/lib/db";
import { DomainError } from "@/lib/errors";
import { logger } from "@/lib/log";
import type { DisplayRegistry, DomainRegistry, RegistryIssue, RegistryParse } from "@/lib/ontology";
import { checkRegistryAgainstCatalog, issuePath, parseDisplayRegistry, parseDomainRegistry } from "@/lib/ontology";
import type { DocumentIssue, RegistryKind, SavedRegistry, SourceRegistriesView } from "./contract";
import { getDataSource } from "./registry";
import { readSourceSchema, statementCatalog } from "./source-schema";

// The SQL analyst's domain and display registries (the design's `domain_registry.json` and
// `display_attributes_registry.json`), one of each per schema of a source. What is stored has
// passed the registry schema and the source's catalog; a registry stays data all the way: its
// names are plain identifiers and its values are bound as parameters by whoever builds SQL.

const { sqlRegistries: registries } = schema;

type Parsed = DomainRegistry | DisplayRegistry;

function parse(kind: RegistryKind, json: unknown): RegistryParse<Parsed> {
  return kind === "domain" ? parseDomainRegistry(json) : parseDisplayRegistry(json);
}

const toIssues = (issues: RegistryIssue[]): DocumentIssue[] =>
  issues.map((i) => ({ path: issuePath(i.path), message: i.message }));

/**
 * The source's registries by schema, for the analyst and the editor. A stored registry is read
 * through the same schema it was saved by; one an older format no longer reads is left out (and
 * said in the log) rather than handed to the analyst.
 */
export async function getRegistries(scope: TenantScope, sourceId: string): Promise<SourceRegistriesView> {
  const source = await getDataSource(scope, sourceId);
  const rows = await withTenant(scope, (tx) =>
    tx.select().from(registries).where(eq(registries.sourceId, sourceId)).orderBy(registries.schemaName),
  );
  const view: SourceRegistriesView = { schemas: source.allowedSchemas, domain: {}, display: {}, stamps: [] };
  for (const row of rows) {
    const kind = row.kind as RegistryKind;
    const parsed = parse(kind, row.registry);
    if (!parsed.ok) {
      logger({ sourceId }).warn(`the ${kind} registry of ${sourceId}/${row.schemaName} no longer validates; not used`);
      continue;
    }
    if (kind === "domain") view.domain[row.schemaName] = parsed.registry as DomainRegistry;
    else view.display[row.schemaName] = parsed.registry as DisplayRegistry;
    view.stamps.push({
      kind,
      schema: row.schemaName,
      updatedBy: row.updatedBy,
      updatedAt: row.updatedAt.toISOString(),
    });
  }
  return view;
}

/**
 * Validates and stores one registry of a schema. Refused, with nothing written: a schema the
 * source does not allow, a document the registry schema refuses (VALIDATION_FAILED, 400), and a
 * registry naming a table or column the schema does not have (REGISTRY_NOT_IN_CATALOG, 422) —
 * each with the issues by path.
 */
export async function setRegistry(
  scope: TenantScope,
  sourceId: string,
  kind: RegistryKind,
  schemaName: string,
  json: unknown,
  userId: string,
): Promise<SavedRegistry> {
  const source = await getDataSource(scope, sourceId);
  if (!source.allowedSchemas.includes(schemaName)) {
    throw invalid([{ path: "schema", message: `"${schemaName}" is not one of the source's allowed schemas` }]);
  }
  const parsed = parse(kind, json);
  if (!parsed.ok) throw invalid(toIssues(parsed.issues));

  const read = await readSourceSchema(scope, sourceId, { catalog: true });
  const check = checkRegistryAgainstCatalog(
    parsed.registry,
    statementCatalog(read.introspected.tables, read.catalog, schemaName),
  );
  if (!check.ok) {
    throw new DomainError(
      "unprocessable",
      "REGISTRY_NOT_IN_CATALOG",
      `The registry names tables or columns that schema ${schemaName} does not have.`,
      toIssues(check.issues),
    );
  }

  const [row] = await withTenant(scope, (tx) =>
    tx
      .insert(registries)
      .values({ tenantId: scope.tenantId, sourceId, kind, schemaName, registry: parsed.registry, updatedBy: userId })
      .onConflictDoUpdate({
        target: [registries.sourceId, registries.kind, registries.schemaName],
        set: { registry: parsed.registry, updatedBy: userId, updatedAt: sql`now()` },
      })
      .returning(),
  );
  return {
    kind,
    schema: row.schemaName,
    registry: parsed.registry,
    updatedBy: row.updatedBy,
    updatedAt: row.updatedAt.toISOString(),
  };
}

function invalid(details: DocumentIssue[]): DomainError {
  return new DomainError("invalid", "VALIDATION_FAILED", "The registry does not match the expected shape.", details);
}
