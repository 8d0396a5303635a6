import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

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
  if (process.env.DATABASE_URL) {
    throw new Error("BETTER_AUTH_SECRET must be set when DATABASE_URL is set (every instance must share it).");
  }
  const dataDir = process.env.VIGIL_DATA_DIR;
  const folder = dataDir && !dataDir.startsWith("memory://") ? dataDir : path.join(process.cwd(), ".data");
  const file = path.join(folder, "auth-secret");
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    mkdirSync(folder, { recursive: true });
    const secret = randomBytes(32).toString("base64url");
    writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
    return secret;
  }
}
