import { randomBytes } from "node:crypto";
import { type Database, schema } from "@/lib/db";

/** A new tenant of its own for a benchmark's data, inserted as the owner (the app role may not). */
export async function benchTenant(database: Database, name: string): Promise<string> {
  const [tenant] = await database.db
    .insert(schema.tenants)
    .values({ slug: `bench-${randomBytes(4).toString("hex")}`, name })
    .returning({ id: schema.tenants.id });
  return tenant.id;
}
