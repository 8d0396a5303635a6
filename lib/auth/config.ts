import { keptSecret } from "@/lib/secrets";

export type AuthMode = "local" | "supabase";

export function authMode(): AuthMode {
  return process.env.AUTH_MODE === "supabase" ? "supabase" : "local";
}

export const TENANT_COOKIE = "vigil_tenant";

/**
 * The secret that signs local session cookies. Embedded installs need no configuration, so
 * without BETTER_AUTH_SECRET one is generated once and kept beside the embedded database; a
 * server deployment (DATABASE_URL set) must provide it, or every instance would sign differently.
 */
export function authSecret(): string {
  const fromEnv = process.env.BETTER_AUTH_SECRET;
  if (fromEnv) return fromEnv;
  const kept = keptSecret("auth-secret");
  if (kept === null) {
    throw new Error("BETTER_AUTH_SECRET must be set when DATABASE_URL is set (every instance must share it).");
  }
  return kept;
}
