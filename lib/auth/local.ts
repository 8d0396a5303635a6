import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { type Database, getDatabase, schema } from "@/lib/db";
import { authSecret } from "./config";
import type { Identity } from "./types";

function createLocalAuth({ db }: Database) {
  return betterAuth({
    secret: authSecret(),
    // better-auth runs in-process only (none of its endpoints is mounted and it sends no links),
    // so without BETTER_AUTH_URL each request's own host is its base URL, as it always was; said
    // by configuration, better-auth no longer warns "Base URL is not set" at every start.
    baseURL: process.env.BETTER_AUTH_URL || { allowedHosts: ["*"], fallback: "http://localhost" },
    // Accounts are provisioned by admins and the seed; nobody signs themselves up into a tenant.
    emailAndPassword: { enabled: true, disableSignUp: true, minPasswordLength: 8 },
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: {
        user: schema.user,
        session: schema.session,
        account: schema.account,
        verification: schema.verification,
      },
    }),
    session: { expiresIn: 60 * 60 * 24 * 7, updateAge: 60 * 60 * 24 },
    trustedOrigins: (process.env.BETTER_AUTH_TRUSTED_ORIGINS ?? "").split(",").filter(Boolean),
    telemetry: { enabled: false },
  });
}

type LocalAuth = ReturnType<typeof createLocalAuth>;
// One better-auth instance per database handle, so it always talks to the database in use.
const instances = new WeakMap<Database, LocalAuth>();

export async function getLocalAuth(): Promise<LocalAuth> {
  const database = await getDatabase();
  let auth = instances.get(database);
  if (!auth) {
    auth = createLocalAuth(database);
    instances.set(database, auth);
  }
  return auth;
}

export async function localIdentity(headers: Headers): Promise<Identity | null> {
  const auth = await getLocalAuth();
  const result = await auth.api.getSession({ headers });
  if (!result) return null;
  return {
    userId: result.user.id,
    email: result.user.email,
    name: result.user.name,
    emailConfirmed: result.user.emailVerified,
  };
}
