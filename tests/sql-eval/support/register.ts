// Registering a database as a data source the way an admin does, through the API: create it,
// Test it (the role must come out verified read-only, so no risk has to be accepted), and give
// the tenant the Data Analyst. Each sql-eval database gets a tenant of its own, so the analyst's
// choice of source cannot send a question to another database.

import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import * as testRoute from "@/app/api/datasources/[id]/test/route";
import * as sourcesRoute from "@/app/api/datasources/route";
import type { DataSourceSummary, DataSourceTestResult } from "@/lib/datasources/contract";
import { type Database, schema } from "@/lib/db";
import { principal } from "../../chat/support";
import { call } from "../../support/http";

/** A new tenant with a copy of the demo tenant's Data Analyst agent (written as the owner). */
export async function tenantWithAnalyst(database: Database, demoTenantId: string, label: string): Promise<string> {
  const [tenant] = await database.db
    .insert(schema.tenants)
    .values({ slug: `${label.replaceAll("_", "-")}-${randomBytes(3).toString("hex")}`, name: label })
    .returning({ id: schema.tenants.id });
  const [agent] = await database.db
    .select()
    .from(schema.agents)
    .where(and(eq(schema.agents.tenantId, demoTenantId), eq(schema.agents.slug, "data-analyst")));
  if (!agent) throw new Error("the demo tenant has no data-analyst agent to copy");
  const { id: _id, createdAt: _c, updatedAt: _u, ...copy } = agent;
  await database.db.insert(schema.agents).values({ ...copy, tenantId: tenant.id });
  return tenant.id;
}

/** POST /api/datasources then POST /api/datasources/{id}/test, as the tenant's admin. */
export async function registerSource(
  tenantId: string,
  input: { name: string; connectionString: string; allowedSchemas: string[] },
): Promise<DataSourceSummary> {
  const admin = await principal(tenantId, "admin");
  const created = await call(sourcesRoute.POST, {
    method: "POST",
    path: "/api/datasources",
    headers: admin.auth,
    body: { kind: "postgres", ...input },
  });
  if (created.status !== 201) throw new Error(`registering ${input.name}: ${JSON.stringify(created.body)}`);
  const source = created.body.source as DataSourceSummary;
  const tested = await call(testRoute.POST, {
    method: "POST",
    path: `/api/datasources/${source.id}/test`,
    headers: admin.auth,
    body: {},
    params: { id: source.id },
  });
  const result = tested.body.result as DataSourceTestResult | undefined;
  if (tested.status !== 200 || !result?.reachable || !result.readOnly.role) {
    throw new Error(`testing ${input.name}: ${JSON.stringify(tested.body)}`);
  }
  return source;
}
