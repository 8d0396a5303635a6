import { createHash } from "node:crypto";
import { config } from "@/lib/config";
import { logger } from "@/lib/log";
import { keptSecret } from "@/lib/secrets";

// The two secrets of the data sources. A server deployment must bring its own: a published
// default would unseal every stored connection string. An embedded install in production
// generates its own once and keeps them beside its database, as it does the auth secret.
// Development and tests run without configuration on keys derived from fixed phrases, and say
// so loudly once per process.

const warned = new Set<string>();

function isProduction(env: NodeJS.ProcessEnv): boolean {
  return env.NODE_ENV === "production";
}

function devDefault(name: string, phrase: string, env: NodeJS.ProcessEnv, file: string): string {
  if (isProduction(env)) {
    const kept = keptSecret(file, env);
    if (kept !== null) return kept;
    throw new Error(`${name} must be set in production: without it data source secrets cannot be kept.`);
  }
  if (!warned.has(name)) {
    warned.add(name);
    logger().warn(
      `${name} is not set; using the development default. Anyone with this source code can read what it protects. Set ${name} before storing real credentials.`,
    );
  }
  return phrase;
}

/**
 * The AES-256 key that seals connection strings: VIGIL_DATASOURCE_KEY as 32 bytes in base64
 * (or base64url) or 64 hex digits. Anything else is refused rather than stretched, so a typo
 * cannot quietly become a weak key.
 */
export function dataSourceKey(env = process.env): Buffer {
  const configured = config(env).datasourceKey;
  if (!configured) {
    const phrase = devDefault("VIGIL_DATASOURCE_KEY", "vigil-development-datasource-key", env, "datasource-key");
    return createHash("sha256").update(phrase).digest();
  }
  const key = /^[0-9a-f]{64}$/i.test(configured)
    ? Buffer.from(configured, "hex")
    : Buffer.from(configured.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  if (key.length !== 32) {
    throw new Error("VIGIL_DATASOURCE_KEY must be 32 bytes, as base64 or 64 hex digits (openssl rand -base64 32).");
  }
  return key;
}

/**
 * The passphrase the demo warehouse encrypts Northwind's personal fields with (pgcrypto's
 * pgp_sym_encrypt) and its secure view decrypts them with.
 */
export function warehouseKey(env = process.env): string {
  const configured = config(env).warehouseKey;
  if (configured && configured.length > 0) return configured;
  return devDefault("VIGIL_WAREHOUSE_KEY", "vigil-development-warehouse-key", env, "warehouse-key");
}

/** A fingerprint that tells whether data was encrypted with the current key, without revealing it. */
export function keyFingerprint(key: string): string {
  return createHash("sha256").update(`vigil-warehouse-key:${key}`).digest("hex").slice(0, 16);
}
