import type { Metadata } from "next";
import { SessionList } from "@/components/audit/SessionList";
import { auditFilterOptions } from "@/lib/audit";
import { adminPageSession } from "../admin-page";

export const metadata: Metadata = { title: "Sessions · Audit" };

/** Every session with its summed trace: calls, tokens, cost, errors, PHI and how sensitive it got. */
export default async function AuditSessionsPage() {
  const session = await adminPageSession();
  if (!session) return null;
  const options = await auditFilterOptions(session);
  return (
    <div>
      <h1 className="text-2xl font-semibold">Sessions</h1>
      <p className="mb-6 text-sm text-slate-600 dark:text-slate-400">
        Every session in {session.tenantName}, most recently active first, as its trace sums it.
      </p>
      <SessionList options={options} />
    </div>
  );
}
