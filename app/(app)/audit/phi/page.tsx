import type { Metadata } from "next";
import { PhiAccessList } from "@/components/audit/PhiAccessList";
import { auditFilterOptions } from "@/lib/audit";
import { adminPageSession } from "../admin-page";

export const metadata: Metadata = { title: "PHI access · Audit" };

/** Every time an agent or tool read data marked PHI: what, for whom, in which run. */
export default async function AuditPhiPage() {
  const session = await adminPageSession();
  if (!session) return null;
  const options = await auditFilterOptions(session);
  return (
    <div>
      <h1 className="text-2xl font-semibold">PHI access</h1>
      <p className="mb-6 text-sm text-slate-600 dark:text-slate-400">
        Every trace event in {session.tenantName} that read data marked PHI, newest first.
      </p>
      <PhiAccessList options={options} />
    </div>
  );
}
