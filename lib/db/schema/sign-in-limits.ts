import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/**
 * Failed sign-in attempts per account and per client address, shared by every instance. Not
 * tenant-scoped: sign-in happens before a tenant is known. `subject` is a hash, so the emails
 * people mistype and the addresses they come from are not kept in the clear.
 */
export const signInLimits = pgTable(
  "sign_in_limits",
  {
    subject: text("subject").primaryKey(),
    kind: text("kind").$type<"account" | "address">().notNull(),
    failures: integer("failures").notNull(),
    lastFailureAt: timestamp("last_failure_at", { withTimezone: true }).notNull(),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    // The attempt that set the lock: a success lifts only the lock its own attempt set.
    attemptId: uuid("attempt_id"),
  },
  (t) => [
    index("sign_in_limits_last_failure_idx").on(t.lastFailureAt),
    check("sign_in_limits_kind_check", sql`${t.kind} in ('account', 'address')`),
  ],
);
