import type { AuditReader } from "@/lib/audit";
import type { Session } from "@/lib/auth";
import { privateWorkflows } from "@/lib/runs";

/** The admin reading the audit, with the workflows whose content stays their starter's. */
export const readerOf = (session: Session): AuditReader => ({
  tenantId: session.tenantId,
  userId: session.userId,
  privateWorkflows: privateWorkflows(),
});
