import { config } from "@/lib/config";
import { logger } from "@/lib/log";

/** The environment variables read here (process.env, or a test's own). */
type Env = Readonly<Record<string, string | undefined>>;

/**
 * What a server deployment (DATABASE_URL) must bring, because an embedded install's kept secrets
 * cannot be shared between instances: the session signing secret (local sign-in) and the key that
 * seals data-source connection strings. The demo warehouse's key is not asked for: a server
 * deployment has no demo warehouse.
 */
export function missingServerSecrets(env: Env = process.env): string[] {
  if (!env.DATABASE_URL || env.NODE_ENV !== "production") return [];
  const missing: string[] = [];
  if (env.AUTH_MODE !== "supabase" && !env.BETTER_AUTH_SECRET) missing.push("BETTER_AUTH_SECRET");
  if (!config(env).datasourceKey) missing.push("VIGIL_DATASOURCE_KEY");
  return missing;
}

/** Refuses to start a server deployment that lacks its secrets, in one sentence, before anything is served. */
export function assertServerSecrets(env: Env = process.env): void {
  const missing = missingServerSecrets(env);
  if (missing.length === 0) return;
  throw new Error(
    `Vigil needs ${missing.join(" and ")} set to start against DATABASE_URL (every instance must share ${missing.length > 1 ? "them" : "it"}; generate with: openssl rand -base64 32).`,
  );
}

/**
 * At process start: a server deployment that lacks its secrets logs why and exits. Here and not
 * in instrumentation.ts, which Next.js also compiles for the Edge runtime, where `process.exit`
 * is reported as an error on every dev compile.
 */
export function exitIfServerSecretsMissing(env: Env = process.env): void {
  try {
    assertServerSecrets(env);
  } catch (error) {
    logger().fatal((error as Error).message);
    process.exit(1);
  }
}
