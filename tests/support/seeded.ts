import { eq } from "drizzle-orm";
import { type Database, schema, seedDemo } from "@/lib/db";

export interface SeededTenants {
  demo: string;
  acme: string;
}

/** Seeds the demo data (as the owner) and returns the two tenants' ids. */
export async function seedTenants(database: Database): Promise<SeededTenants> {
  await seedDemo(database, { force: true });
  const rows = await database.db.select().from(schema.tenants);
  const id = (slug: string) => {
    const row = rows.find((r) => r.slug === slug);
    if (!row) throw new Error(`tenant ${slug} missing after seed`);
    return row.id;
  };
  return { demo: id("demo"), acme: id("acme") };
}

export async function userIdOf(database: Database, email: string): Promise<string> {
  const [row] = await database.db.select().from(schema.user).where(eq(schema.user.email, email));
  if (!row) throw new Error(`no user ${email}`);
  return row.id;
}
