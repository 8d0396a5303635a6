import { sql } from "drizzle-orm";
import { check, index, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";

import type { Role } from "../../access";

export type { Role };

export type ApiKeyCreatedVia = "session" | "operator" | "api_key";

/** When a row was made or last changed (timestamptz, set by the database). */
export const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
export const updatedAt = () => timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();

/**
 * The tenant a row belongs to. Every table with this column must also be secured in its
 * migration with `vigil_secure_tenant_table` (a test checks that none is missed).
 */
export const tenantRef = () =>
  uuid("tenant_id")
    .notNull()
    .references(() => tenants.id, { onDelete: "restrict" });

export const tenants = pgTable("tenants", {
  id: uuid("id").primaryKey().defaultRandom(),
  slug: text("slug").notNull().unique(),
  name: text("name").notNull(),
  createdAt: createdAt(),
});

// user_id is the principal's id in whichever identity provider is active (better-auth in
// local mode, Supabase Auth in supabase mode), so it carries no foreign key.
export const memberships = pgTable(
  "memberships",
  {
    tenantId: tenantRef(),
    userId: text("user_id").notNull(),
    email: text("email").notNull(),
    displayName: text("display_name").notNull(),
    role: text("role").$type<Role>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.userId] }),
    index("memberships_user_idx").on(t.userId),
    check("memberships_role_check", sql`${t.role} in ('member', 'reviewer', 'admin')`),
  ],
);

export const apiKeys = pgTable(
  "api_keys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    name: text("name").notNull(),
    // The first characters of the key, shown in lists so a person can tell keys apart.
    prefix: text("prefix").notNull(),
    keyHash: text("key_hash").notNull().unique(),
    role: text("role").$type<Role>().notNull(),
    // Who made the key. created_via 'session': a signed-in person, created_by their user id.
    // 'operator': a server-side tool (`npm run apikey` records 'cli:<operating-system account>').
    // 'api_key': minted by another key, which the API refuses; created_by then names the parent
    // as 'apikey:<id>', so revoking the parent revokes it too.
    createdBy: text("created_by").notNull(),
    createdVia: text("created_via").$type<ApiKeyCreatedVia>().notNull().default("operator"),
    createdAt: createdAt(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [
    index("api_keys_tenant_idx").on(t.tenantId, t.createdAt),
    check("api_keys_role_check", sql`${t.role} in ('member', 'reviewer', 'admin')`),
    check("api_keys_created_via_check", sql`${t.createdVia} in ('session', 'operator', 'api_key')`),
  ],
);
