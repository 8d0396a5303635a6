import type { Membership, Role } from "@/lib/tenancy";

/** Who a request comes from, as the identity provider says. */
export interface Identity {
  userId: string;
  email: string;
  name: string;
  /** The provider has confirmed the person owns this email address. */
  emailConfirmed: boolean;
}

/**
 * The server-derived principal of a request: everything downstream takes its tenant and role
 * from here, never from a request body.
 */
export interface Session {
  userId: string;
  email: string;
  name: string;
  tenantId: string;
  tenantSlug: string;
  tenantName: string;
  role: Role;
  /** Every tenant this principal may switch to (one for an API key). */
  tenants: Membership[];
  via: "session" | "api_key";
}
