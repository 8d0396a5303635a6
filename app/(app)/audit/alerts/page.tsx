import type { Metadata } from "next";
import { AlertRules } from "@/components/audit/AlertRules";
import { evaluateAlerts } from "@/lib/audit";
import { adminPageSession } from "../admin-page";

export const metadata: Metadata = { title: "Alerts · Audit" };

/** The alert rules, evaluated as the page opens, with their thresholds and what fired before. */
export default async function AuditAlertsPage() {
  const session = await adminPageSession();
  if (!session) return null;
  const { alerts } = await evaluateAlerts(session);
  return (
    <div>
      <h1 className="text-2xl font-semibold">Alerts</h1>
      <p className="mb-6 text-sm text-slate-600 dark:text-slate-400">
        The rules watched over {session.tenantName}'s record, read from the database each time this page opens. A rule
        fires when its value goes above its threshold.
      </p>
      <AlertRules alerts={alerts} />
    </div>
  );
}
