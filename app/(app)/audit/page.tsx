import type { Metadata } from "next";
import { AlertsSummary } from "@/components/audit/AlertsSummary";
import { AuditRunList } from "@/components/audit/AuditRunList";
import { AuditOverviewCharts } from "@/components/audit/charts/AuditOverviewCharts";
import { IntegrityPanel } from "@/components/audit/IntegrityPanel";
import { auditCharts, auditFilterOptions } from "@/lib/audit";
import { DEFAULT_CHART_RANGE } from "@/lib/audit/contract";
import { integrityStatus } from "@/lib/trace";
import { adminPageSession } from "./admin-page";

export const metadata: Metadata = { title: "Audit" };

/** The admin's home: is the record intact, and what ran, for whom, at what cost. */
export default async function AuditPage() {
  const session = await adminPageSession();
  if (!session) return null;
  const [status, options, charts] = await Promise.all([
    integrityStatus(session),
    auditFilterOptions(session),
    auditCharts(session, DEFAULT_CHART_RANGE),
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
      <AuditOverviewCharts initial={charts} />
      <AuditRunList options={options} />
    </div>
  );
}
