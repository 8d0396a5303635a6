import type { ReactNode } from "react";
import { AuditTabs } from "@/components/audit/AuditTabs";
import { adminPageSession } from "./admin-page";

/** Every audit page under one row of tabs; anyone but an admin gets the 403 page instead. */
export default async function AuditLayout({ children }: { children: ReactNode }) {
  const session = await adminPageSession();
  if (!session) return children;
  return (
    <div>
      <AuditTabs />
      {children}
    </div>
  );
}
