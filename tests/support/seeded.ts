import { eq } from "drizzle-orm";
import { afterAll, beforeAll } from "vitest";
import { type Database, schema, setActiveDatabase } from "@/lib/db";
import { seedDemo, seedKnowledgeCorpus } from "@/lib/demo";
import { boot } from "@/lib/server";
import { drainTrace } from "@/lib/trace";
import type { TestDatabase, TestTarget } from "./databases";

export interface SeededTenants {
  demo: string;
  acme: string;
}

export interface SeedOptions {
  /** Load the demo knowledge corpus too (default); suites that never search skip it. */
  knowledge?: boolean;
}

/** Seeds the demo data (as the owner) and returns the two tenants' ids. */
export async function seedTenants(database: Database, options: SeedOptions = {}): Promise<SeededTenants> {
  await seedDemo(database, { force: true });
  if (options.knowledge !== false) await seedKnowledgeCorpus(database, { embeddings: null });
  return seededTenantIds(database);
}

/** The two demo tenants' ids in a seeded database. */
export async function seededTenantIds(database: Database): Promise<SeededTenants> {
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

/**
 * The usual suite setup: a fresh database of the target, seeded, used by every lib call for
 * the suite's duration; trace writes are flushed before it is closed.
 */
export function seededDatabase(
  target: TestTarget,
  options: SeedOptions = {},
): { database: TestDatabase; tenants: SeededTenants } {
  const suite = {} as { database: TestDatabase; tenants: SeededTenants };
  beforeAll(async () => {
    // A copy of the run's seeded template when there is one: the same rows seeding writes.
    const variant = options.knowledge === false ? "seeded" : "seeded-knowledge";
    // A template that fails to build fails the suite, rather than each suite seeding its own.
    const seeded = target.openFrom ? await target.openFrom(variant) : null;
    suite.database = seeded ?? (await target.open());
    setActiveDatabase(suite.database);
    await boot({ sweeps: false });
    suite.tenants = seeded ? await seededTenantIds(suite.database) : await seedTenants(suite.database, options);
  });
  afterAll(async () => {
    await drainTrace();
    setActiveDatabase(undefined);
    // Undefined when opening it failed: that failure is the one to report, not this one.
    await suite.database?.close();
  });
  return suite;
}
