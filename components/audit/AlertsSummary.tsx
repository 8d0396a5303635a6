import { BellOff, BellRing } from "lucide-react";
import Link from "next/link";
import { evaluateAlerts } from "@/lib/audit";
import { formatAlertFigure, formatWindow } from "./alerts-api";

const SEVERITY_STYLE = {
  critical: "text-red-700 dark:text-red-400",
  warning: "text-amber-700 dark:text-amber-400",
  info: "text-sky-700 dark:text-sky-400",
} as const;

/** The overview's line on alerts, evaluated as the page renders: what fires now, or that nothing does. */
export async function AlertsSummary({ tenantId }: { tenantId: string }) {
  const { alerts } = await evaluateAlerts({ tenantId });
  const firing = alerts.filter((a) => a.state === "firing");
  return (
    <section
      aria-labelledby="alerts-summary-heading"
      data-testid="alerts-summary"
      data-firing={firing.length}
      className="mb-8 rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="alerts-summary-heading" className="flex items-center gap-2 font-semibold">
          {firing.length > 0 ? (
            <BellRing aria-hidden className="h-5 w-5 text-red-600" />
          ) : (
            <BellOff aria-hidden className="h-5 w-5 text-slate-500" />
          )}
          {firing.length > 0 ? `${firing.length} ${firing.length === 1 ? "alert" : "alerts"} firing` : "No alerts"}
        </h2>
        <Link href="/audit/alerts" className="text-sm text-brand-700 hover:underline dark:text-brand-100">
          Thresholds and history
        </Link>
      </div>
      {firing.length > 0 ? (
        <ul className="mt-2 space-y-1 text-sm">
          {firing.map((a) => (
            <li key={a.rule} className="[overflow-wrap:anywhere]">
              <span className={`font-medium ${SEVERITY_STYLE[a.severity]}`}>{a.severity}</span> · {a.title}:{" "}
              {formatAlertFigure(a.unit, a.value)} over the last {formatWindow(a.windowMinutes)} (threshold{" "}
              {formatAlertFigure(a.unit, a.threshold)})
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          Every enabled rule is within its threshold: checkpoint timeouts, PHI access, run failures and trace growth.
        </p>
      )}
    </section>
  );
}
