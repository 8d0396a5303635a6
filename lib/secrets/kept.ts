import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { config } from "@/lib/config";

/** The environment variables read here (process.env, or a test's own). */
type Env = Readonly<Record<string, string | undefined>>;

/**
 * The folder an embedded install keeps its own secrets in: its data folder when one is set (the
 * secrets travel with the database they protect), else `.data` beside the default database.
 */
export function keptSecretsFolder(env: Env = process.env): string {
  const dataDir = config(env).dataDir;
  return dataDir && !dataDir.startsWith("memory://") ? dataDir : path.join(process.cwd(), ".data");
}

/**
 * A secret an embedded install generates once and keeps, so `npm start` needs no configuration
 * and a restart reads back the same secret. A server deployment (DATABASE_URL set) gets null:
 * every instance must share the secret, so only the environment can provide it.
 */
export function keptSecret(file: string, env: Env = process.env): string | null {
  if (env.DATABASE_URL) return null;
  const folder = keptSecretsFolder(env);
  const where = path.join(folder, file);
  const read = () => readFileSync(where, "utf8").trim();
  try {
    return read();
  } catch {
    mkdirSync(folder, { recursive: true });
    try {
      writeFileSync(where, randomBytes(32).toString("base64url"), { mode: 0o600, flag: "wx" });
    } catch (error) {
      // Another process of the same install wrote it first: theirs is the one to keep.
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    return read();
  }
}
