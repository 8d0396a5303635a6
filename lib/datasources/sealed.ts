import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { dataSourceKey } from "./keys";

// Connection strings at rest: AES-256-GCM with a random 96-bit nonce. The tenant and the row's
// id are authenticated with it, so a sealed value copied into another row or tenant does not open.

const VERSION = "v1";

export interface SealContext {
  tenantId: string;
  sourceId: string;
}

const aad = (context: SealContext) => Buffer.from(`data_sources:${context.tenantId}:${context.sourceId}`);

export function sealConnection(plain: string, context: SealContext, key = dataSourceKey()): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(aad(context));
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), body]
    .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
    .join(".");
}

export function openConnection(sealed: string, context: SealContext, key = dataSourceKey()): string {
  const [version, iv, tag, body] = sealed.split(".");
  if (version !== VERSION || !iv || !tag || body === undefined) throw new Error("Unknown sealed connection format.");
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
  decipher.setAAD(aad(context));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  try {
    return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    // GCM's own message ("Unsupported state or unable to authenticate data") says nothing useful.
    throw new Error(
      "The connection string could not be opened: VIGIL_DATASOURCE_KEY differs from the key it was sealed with.",
    );
  }
}
