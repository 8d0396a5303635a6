import type { Role } from "@/lib/access";
import type { TenantScope } from "@/lib/db";

/**
 * Who acts on a case: the principal, its tenant and role, from the session or API key (never
 * from a request body). `system` is the product itself (timeouts, low-risk auto-approval).
 * `name` is a display field only.
 */
export interface HitlActor extends TenantScope {
  userId: string;
  role: Role | "system";
  name?: string;
}
