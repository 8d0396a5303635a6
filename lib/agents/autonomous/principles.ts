import { asc } from "drizzle-orm";
import { z } from "zod";
import { schema, type TenantScope, withTenant } from "@/lib/db";
import { SEVERITIES } from "../contract";
import { DEFAULT_PRINCIPLES } from "./constitution";

/** `PUT /api/principles`: the tenant's whole set, replacing the last (an empty list restores the defaults). */
export const PrinciplesBody = z
  .object({
    principles: z
      .array(
        z
          .object({
            id: z.string().regex(/^[a-z][a-z0-9_]{1,63}$/, "lower_snake_case, 2–64 characters"),
            description: z.string().trim().min(1).max(1000),
            severity: z.enum(SEVERITIES),
            enabled: z.boolean().default(true),
          })
          .strict(),
      )
      .max(50)
      .refine((list) => new Set(list.map((p) => p.id)).size === list.length, "Each principle id once."),
  })
  .strict();

export interface PrincipleView {
  id: string;
  description: string;
  severity: string;
  enabled: boolean;
  /** Whether the validator has a check for it; a principle without one is kept but not enforced. */
  checked: boolean;
}

const CHECKED = new Set(DEFAULT_PRINCIPLES.map((p) => p.id));

/** The principles drafts are validated against: the tenant's own, or the defaults while it has none. */
export async function listPrinciples(scope: TenantScope): Promise<{ items: PrincipleView[]; defaults: boolean }> {
  const p = schema.constitutionalPrinciples;
  const rows = await withTenant(scope, (tx) => tx.select().from(p).orderBy(asc(p.principleId)));
  if (rows.length === 0) {
    return { items: DEFAULT_PRINCIPLES.map((d) => ({ ...d, enabled: true, checked: true })), defaults: true };
  }
  return {
    items: rows.map((r) => ({
      id: r.principleId,
      description: r.description,
      severity: r.severity,
      enabled: r.enabled,
      checked: CHECKED.has(r.principleId),
    })),
    defaults: false,
  };
}

export async function setPrinciples(scope: TenantScope, body: z.infer<typeof PrinciplesBody>) {
  const p = schema.constitutionalPrinciples;
  await withTenant(scope, async (tx) => {
    await tx.delete(p);
    if (body.principles.length > 0) {
      await tx.insert(p).values(
        body.principles.map((x) => ({
          tenantId: scope.tenantId,
          principleId: x.id,
          description: x.description,
          severity: x.severity,
          enabled: x.enabled,
        })),
      );
    }
  });
  return listPrinciples(scope);
}
