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

export async function createApiKey(
  scope: TenantScope,
  input: { name: string; role: Role; createdBy: string },
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

export async function revokeApiKey(scope: TenantScope, id: string): Promise<ApiKeySummary> {
  const [row] = await withTenant(scope, (tx) =>
    tx
      .update(schema.apiKeys)
      .set({ revokedAt: new Date() })
      .where(and(eq(schema.apiKeys.id, id), isNull(schema.apiKeys.revokedAt)))
      .returning(),
  );
  if (!row) throw new NotFoundError("API key", { id });
  return toSummary(row);
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
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}
