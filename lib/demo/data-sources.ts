import { eq } from "drizzle-orm";
import { prepareJoinGraph, registerDemoWarehouse } from "@/lib/datasources";
import { type Database, schema } from "@/lib/db";
import { logger } from "@/lib/log";
import { SEED_TENANTS } from "./tenants";

/**
 * Gives each demo tenant with a SQL analyst the demo warehouse (Northwind, Chinook, Pagila) as a
 * data source, while the tenant has none. The warehouse itself loads on first use: embedded, or
 * into the server database on a `DATABASE_URL` deployment.
 * A missing key (production without VIGIL_DATASOURCE_KEY) is said once and the demo goes on
 * without the source.
 */
export async function seedDemoDataSources(database: Database): Promise<{ registered: number }> {
  let registered = 0;
  for (const seed of SEED_TENANTS) {
    if (!seed.agents.some((agent) => agent.workflow === "sql-analyst")) continue;
    const [tenant] = await database.db
      .select({ id: schema.tenants.id })
      .from(schema.tenants)
      .where(eq(schema.tenants.slug, seed.slug));
    if (!tenant) continue;
    try {
      if (await registerDemoWarehouse(database.db, tenant.id)) registered++;
    } catch (error) {
      logger().error(
        `the demo warehouse was not registered for ${seed.slug}: ${error instanceof Error ? error.message : error}`,
      );
      break;
    }
  }
  return { registered };
}

/**
 * Builds the join graph of each demo tenant's data sources that has none stored yet, so an
 * admin's first look at the demo warehouse (and the analyst's first question) does not wait for
 * the warehouse to load and be introspected. The server starts it in the background after the
 * seed; `npm run db:seed` waits for it. A source that cannot be read now is left for its first
 * view, as before (`prepareJoinGraph` logs why).
 */
export async function prepareDemoJoinGraphs(database: Database): Promise<{ prepared: number }> {
  let prepared = 0;
  for (const seed of SEED_TENANTS) {
    if (!seed.agents.some((agent) => agent.workflow === "sql-analyst")) continue;
    const sources = await database.db
      .select({ id: schema.dataSources.id, tenantId: schema.dataSources.tenantId })
      .from(schema.dataSources)
      .innerJoin(schema.tenants, eq(schema.tenants.id, schema.dataSources.tenantId))
      .where(eq(schema.tenants.slug, seed.slug));
    for (const source of sources) {
      if (await prepareJoinGraph({ tenantId: source.tenantId }, source.id)) prepared++;
    }
  }
  return { prepared };
}
