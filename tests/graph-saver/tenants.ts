import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { type Database, schema } from "@/lib/db";

/** A tenant row, inserted as the owner (the app role may not insert tenants). */
export async function createTenant(database: Database, label: string): Promise<string> {
  const slug = `${label}-${randomBytes(4).toString("hex")}`;
  const [tenant] = await database.db
    .insert(schema.tenants)
    .values({ slug, name: label })
    .returning({ id: schema.tenants.id });
  return tenant.id;
}

/** Removes every checkpoint row of a tenant, as the owner. */
export async function clearCheckpoints(database: Database, tenantId: string): Promise<void> {
  const tables = [
    schema.checkpoints,
    schema.checkpointBlobs,
    schema.checkpointWrites,
    schema.checkpointMetadataTerms,
    schema.checkpointThreads,
  ];
  for (const table of tables) await database.db.delete(table).where(eq(table.tenantId, tenantId));
}
