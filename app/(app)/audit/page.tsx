import type { Metadata } from "next";
import { AlertsSummary } from "@/components/audit/AlertsSummary";
import { AuditRunList } from "@/components/audit/AuditRunList";
import { IntegrityPanel } from "@/components/audit/IntegrityPanel";
import { RunsPerDayChart } from "@/components/audit/RunsPerDayChart";
import { auditFilterOptions, integrityStatus, lastDays, runsPerDay } from "@/lib/audit";
import { adminPageSession } from "./admin-page";

export const metadata: Metadata = { title: "Audit" };

/** The admin's home: is the record intact, and what ran, for whom, at what cost. */
export default async function AuditPage() {
  const session = await adminPageSession();
  if (!session) return null;
  const [status, options, days] = await Promise.all([
    integrityStatus(session),
    auditFilterOptions(session),
    runsPerDay(session, lastDays(30)),
  ]);
  return (
    <div>
      <h1 className="text-2xl font-semibold">Audit</h1>
      <p className="mb-6 text-sm text-slate-600 dark:text-slate-400">
        Who decided what, when, on what evidence and at what cost, for every run in {session.tenantName}, and proof that
        the record was not altered.
      </p>
      <IntegrityPanel status={status} />
      <AlertsSummary tenantId={session.tenantId} />
      <RunsPerDayChart days={days} />
      <AuditRunList options={options} />
    </div>
  );
}
