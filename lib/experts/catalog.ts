import { and, asc, eq, ilike, or } from "drizzle-orm";
import { schema, type TenantScope, withTenant } from "@/lib/db";
import { NotFoundError } from "@/lib/errors";
import type { AgentCard } from "./contract";
import { usableAgent } from "./workflows";

export type Agent = typeof schema.agents.$inferSelect;

function toCard({ systemPrompt: _prompt, tenantId: _tenant, createdAt, updatedAt, ...card }: Agent): AgentCard {
  return { ...card, createdAt: createdAt.toISOString(), updatedAt: updatedAt.toISOString() };
}

/** The tenant's usable agents (active, their workflow available), optionally narrowed by a search over name, domain and description. */
export async function listAgents(scope: TenantScope, options: { q?: string } = {}): Promise<AgentCard[]> {
  const a = schema.agents;
  const q = options.q?.trim();
  const pattern = q ? `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  const rows = await withTenant(scope, (tx) =>
    tx
      .select()
      .from(a)
      .where(
        and(
          usableAgent(),
          pattern ? or(ilike(a.name, pattern), ilike(a.domain, pattern), ilike(a.description, pattern)) : undefined,
        ),
      )
      .orderBy(asc(a.name)),
  );
  return rows.map(toCard);
}

export async function getAgentBySlug(scope: TenantScope, slug: string): Promise<AgentCard> {
  const [row] = await withTenant(scope, (tx) =>
    tx
      .select()
      .from(schema.agents)
      .where(and(eq(schema.agents.slug, slug), usableAgent()))
      .limit(1),
  );
  if (!row) throw new NotFoundError("Agent", { slug });
  return toCard(row);
}
