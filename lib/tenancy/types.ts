import type { Role } from "@/lib/access";

export type { Role };

export interface Membership {
  tenantId: string;
  tenantSlug: string;
  tenantName: string;
  role: Role;
  email: string;
  displayName: string;
}

export interface ApiKeySummary {
  id: string;
  name: string;
  prefix: string;
  role: Role;
  createdBy: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}
