import { asc } from "drizzle-orm";
import { schema, type TenantScope, withTenant } from "@/lib/db";
import type { AuditFilterOptions } from "./contract";

/** The agents and people the audit list can be narrowed to: every one of the tenant's, active or not. */
export async function auditFilterOptions(scope: TenantScope): Promise<AuditFilterOptions> {
  return withTenant(scope, async (tx) => {
    const agents = await tx
      .select({ id: schema.agents.id, slug: schema.agents.slug, name: schema.agents.name })
      .from(schema.agents)
      .orderBy(asc(schema.agents.name));
    const people = await tx
      .select({ id: schema.memberships.userId, name: schema.memberships.displayName, role: schema.memberships.role })
      .from(schema.memberships)
      .orderBy(asc(schema.memberships.displayName));
    return { agents, people };
  });
}
