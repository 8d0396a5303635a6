import { sql } from "drizzle-orm";
import { rowsOf, withAppRole } from "@/lib/db";
import type { Membership, Role } from "./contract";

interface MembershipRow {
  tenant_id: string;
  tenant_slug: string;
  tenant_name: string;
  role: Role;
  email: string;
  display_name: string;
}

/** Every tenant a person belongs to, looked up before a tenant is chosen. */
export async function membershipsOf(userId: string): Promise<Membership[]> {
  const result = await withAppRole((tx) => tx.execute(sql`select * from vigil_memberships_of(${userId})`));
  return rowsOf<MembershipRow>(result).map((r) => ({
    tenantId: r.tenant_id,
    tenantSlug: r.tenant_slug,
    tenantName: r.tenant_name,
    role: r.role,
    email: r.email,
    displayName: r.display_name,
  }));
}

export async function tenantBySlug(slug: string): Promise<{ tenantId: string; tenantName: string } | null> {
  const result = await withAppRole((tx) => tx.execute(sql`select * from vigil_tenant_by_slug(${slug})`));
  const row = rowsOf<{ tenant_id: string; tenant_name: string }>(result)[0];
  return row ? { tenantId: row.tenant_id, tenantName: row.tenant_name } : null;
}

/** Turns pending email invitations into memberships of this user id; returns how many. */
export async function claimInvitations(userId: string, email: string): Promise<number> {
  const result = await withAppRole((tx) =>
    tx.execute(sql`select vigil_claim_invitations(${userId}, ${email}) as claimed`),
  );
  return Number(rowsOf<{ claimed: number }>(result)[0]?.claimed ?? 0);
}
