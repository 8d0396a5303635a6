import { randomUUID } from "node:crypto";
import { hashPassword } from "better-auth/crypto";
import { eq, sql } from "drizzle-orm";
import { type Database, schema, type Tx } from "@/lib/db";
import { DEMO_PASSWORD, SEED_TENANTS } from "./tenants";

const { account, agents, memberships, tenants, user } = schema;

export interface SeedOptions {
  /** Seed even under NODE_ENV=production (demo accounts have a published password). */
  force?: boolean;
  /** In supabase mode people live in Supabase: memberships wait to be claimed by email. */
  identity?: "local" | "supabase";
}

/**
 * Creates the demo and acme tenants with their people and agents. Runs on the owner connection
 * (tenants cannot be created by the app role) and is idempotent: existing rows are kept.
 */
export async function seedDemo(database: Database, options: SeedOptions = {}): Promise<{ created: boolean }> {
  if (process.env.NODE_ENV === "production" && !options.force) {
    throw new Error("Refusing to seed demo accounts with NODE_ENV=production; pass --force to do it anyway.");
  }
  const { db } = database;
  const existing = await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.slug, "demo"));
  if (existing.length > 0) return { created: false };
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  await db.transaction(async (tx) => {
    const joined = new Set<string>();
    for (const t of SEED_TENANTS) {
      const [tenant] = await tx.insert(tenants).values({ slug: t.slug, name: t.name }).returning();
      for (const person of t.people) {
        const userId =
          options.identity === "supabase"
            ? `invite:${person.email.toLowerCase()}`
            : await ensureLocalUser(tx, person, passwordHash);
        await tx.insert(memberships).values({
          tenantId: tenant.id,
          userId,
          email: person.email,
          displayName: person.name,
          role: person.role,
          // A person lands in the tenant they joined first. Every row of this transaction has
          // the same now(), so a second tenant's membership is dated a second later.
          ...(joined.has(userId) ? { createdAt: sql`now() + interval '1 second'` } : {}),
        });
        joined.add(userId);
      }
      await tx.insert(agents).values(t.agents.map((a) => ({ ...a, tenantId: tenant.id })));
    }
  });
  return { created: true };
}

async function ensureLocalUser(tx: Tx, person: { email: string; name: string }, passwordHash: string) {
  const [found] = await tx.select({ id: user.id }).from(user).where(eq(user.email, person.email));
  if (found) return found.id;
  const id = randomUUID();
  await tx.insert(user).values({ id, email: person.email, name: person.name, emailVerified: true });
  await tx.insert(account).values({ id, accountId: id, providerId: "credential", userId: id, password: passwordHash });
  return id;
}
