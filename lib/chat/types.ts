import type { Role } from "@/lib/access";

/** Who is chatting: the principal from the session, never from a body. */
export interface ChatActor {
  tenantId: string;
  userId: string;
  role: Role;
}
