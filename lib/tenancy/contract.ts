// The tenancy's client-safe contract: memberships and API keys as the settings pages read them.
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
  /** A person's user id for "session"; the tool or account for "operator"; "apikey:<id>" for "api_key". */
  createdBy: string;
  /** How the key was made: by a signed-in person, by an operator's server-side tool, or by a key. */
  createdVia: "session" | "operator" | "api_key";
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** A new key as created: the summary plus the secret, shown once and never stored. */
export interface CreatedApiKey extends ApiKeySummary {
  key: string;
}
