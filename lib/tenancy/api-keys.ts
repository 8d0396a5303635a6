import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { rowsOf, schema, type TenantScope, withAppRole, withTenant } from "@/lib/db";
import { NotFoundError } from "@/lib/errors";
import type { ApiKeySummary, CreatedApiKey, Role } from "./contract";

const KEY_PREFIX = "vk_";

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

export function looksLikeApiKey(value: string): boolean {
  return value.startsWith(KEY_PREFIX) && value.length > 20 && value.length < 200;
}

/**
 * Mints a key. `createdBy` is who made it: a person's user id when `createdVia` is "session"
 * (the API), else the server-side tool or account that did ("operator", the default).
 */
export async function createApiKey(
  scope: TenantScope,
  input: { name: string; role: Role; createdBy: string; createdVia?: "session" | "operator" },
): Promise<CreatedApiKey> {
  const key = `${KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
  const [row] = await withTenant(scope, (tx) =>
    tx
      .insert(schema.apiKeys)
      .values({
        tenantId: scope.tenantId,
        name: input.name,
        role: input.role,
        createdBy: input.createdBy,
        createdVia: input.createdVia ?? "operator",
        prefix: key.slice(0, 10),
        keyHash: hashApiKey(key),
      })
      .returning(),
  );
  return { ...toSummary(row), key };
}

export async function listApiKeys(scope: TenantScope): Promise<ApiKeySummary[]> {
  const rows = await withTenant(scope, (tx) =>
    tx.select().from(schema.apiKeys).orderBy(desc(schema.apiKeys.createdAt)).limit(500),
  );
  return rows.map(toSummary);
}

/** Revokes a key, and with it every key it minted (at any depth; see created_via 'api_key'). */
export async function revokeApiKey(scope: TenantScope, id: string): Promise<ApiKeySummary> {
  const row = await withTenant(scope, async (tx) => {
    const [revoked] = await tx
      .update(schema.apiKeys)
      .set({ revokedAt: new Date() })
      .where(and(eq(schema.apiKeys.id, id), isNull(schema.apiKeys.revokedAt)))
      .returning();
    if (revoked) await tx.execute(revokeMintedBy(revoked.id));
    return revoked;
  });
  if (!row) throw new NotFoundError("API key", { id });
  return toSummary(row);
}

function revokeMintedBy(parentId: string) {
  return sql`
    with recursive minted (id) as (
      select k.id from api_keys k where k.created_via = 'api_key' and k.created_by = ${`apikey:${parentId}`}
      union
      select k.id from api_keys k join minted m on k.created_by = 'apikey:' || m.id::text
      where k.created_via = 'api_key'
    )
    update api_keys set revoked_at = now() where id in (select id from minted) and revoked_at is null`;
}

export interface ResolvedApiKey {
  keyId: string;
  keyName: string;
  tenantId: string;
  tenantSlug: string;
  tenantName: string;
  role: Role;
}

/** The tenant and role of a live key, or null for an unknown or revoked one. */
export async function resolveApiKey(key: string): Promise<ResolvedApiKey | null> {
  const result = await withAppRole((tx) => tx.execute(sql`select * from vigil_resolve_api_key(${hashApiKey(key)})`));
  const row = rowsOf<{
    key_id: string;
    key_name: string;
    tenant_id: string;
    tenant_slug: string;
    tenant_name: string;
    role: Role;
  }>(result)[0];
  if (!row) return null;
  return {
    keyId: row.key_id,
    keyName: row.key_name,
    tenantId: row.tenant_id,
    tenantSlug: row.tenant_slug,
    tenantName: row.tenant_name,
    role: row.role,
  };
}

function toSummary(row: typeof schema.apiKeys.$inferSelect): ApiKeySummary {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    role: row.role,
    createdBy: row.createdBy,
    createdVia: row.createdVia,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}
