import type { Metadata } from "next";
import { DecisionAudit } from "@/components/audit/DecisionAudit";
import { auditFilterOptions } from "@/lib/audit";
import { adminPageSession } from "../admin-page";

export const metadata: Metadata = { title: "Decisions · Audit" };

/** Every decision taken on a case: who, what, with which notes and edits, and how long it waited. */
export default async function AuditDecisionsPage() {
  const session = await adminPageSession();
  if (!session) return null;
  const options = await auditFilterOptions(session);
  return (
    <div>
      <h1 className="text-2xl font-semibold">Decisions</h1>
      <p className="mb-6 text-sm text-slate-600 dark:text-slate-400">
        Every decision a person or the system took on a case in {session.tenantName}.
      </p>
      <DecisionAudit people={options.people} />
    </div>
  );
}
