import { asc } from "drizzle-orm";
import { z } from "zod";
import { schema, type TenantScope, withTenant } from "@/lib/db";
import { SEVERITIES } from "../contract";
import { BUILTIN_PRINCIPLES, DEFAULT_PRINCIPLES, isCheckable } from "./constitution";
import { deploymentModelJudges } from "./model-call";
import { PrincipleCheck } from "./principle-checks";

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
            /** How it is checked; the built-in principles' ids need none. */
            check: PrincipleCheck.nullish(),
          })
          .strict()
          // Saved as enabled, a principle nothing checks would read as enforced while it is not.
          .refine((p) => !p.enabled || p.check?.kind === "judged" || isCheckable(p), {
            path: ["check"],
            message:
              "Give this principle a check (forbidden phrases, a required disclaimer, must cite, a pattern, a maximum length, or judged by the model), or save it disabled.",
          })
          // A judged check is enforced only where a model judges it: without one, it needs a
          // mechanical fallback, or it would read as enforced while nothing checks it.
          .refine((p) => !p.enabled || p.check?.kind !== "judged" || isCheckable(p, deploymentModelJudges()), {
            path: ["check"],
            message:
              "No model is configured to judge this principle: give the judged check a fallback (a mechanical check), or save it disabled.",
          })
          .refine((p) => p.check?.kind !== "builtin" || BUILTIN_PRINCIPLES.has(p.id), {
            path: ["check"],
            message: "Only the built-in principles have a built-in check.",
          }),
      )
      .max(50)
      .refine((list) => new Set(list.map((p) => p.id)).size === list.length, "Each principle id once."),
  })
  .strict();

/** A stored check, read back; a row written before checks existed has none. */
export function storedCheck(value: unknown): PrincipleCheck | null {
  const parsed = PrincipleCheck.safeParse(value);
  return parsed.success ? parsed.data : null;
}

export interface PrincipleView {
  id: string;
  description: string;
  severity: string;
  enabled: boolean;
  check: PrincipleCheck | null;
  /** Whether the validator has a check for it; a principle without one is kept (disabled) but not enforced. */
  checked: boolean;
}

/** The principles drafts are validated against: the tenant's own, or the defaults while it has none. */
export async function listPrinciples(scope: TenantScope): Promise<{ items: PrincipleView[]; defaults: boolean }> {
  const p = schema.constitutionalPrinciples;
  const rows = await withTenant(scope, (tx) => tx.select().from(p).orderBy(asc(p.principleId)));
  if (rows.length === 0) {
    return {
      items: DEFAULT_PRINCIPLES.map((d) => ({
        ...d,
        check: { kind: "builtin" as const },
        enabled: true,
        checked: true,
      })),
      defaults: true,
    };
  }
  return {
    items: rows.map((r) => {
      const check =
        storedCheck(r.check) ?? (BUILTIN_PRINCIPLES.has(r.principleId) ? { kind: "builtin" as const } : null);
      return {
        id: r.principleId,
        description: r.description,
        severity: r.severity,
        enabled: r.enabled,
        check,
        checked: isCheckable({ id: r.principleId, check }, deploymentModelJudges()),
      };
    }),
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
          check: x.check ?? null,
        })),
      );
    }
  });
  return listPrinciples(scope);
}
