import { ArrowLeft } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { PrintButton } from "@/components/audit/ReportActions";
import { Facts, RunReportSections, utc } from "@/components/audit/RunReport";
import { formatTokens, formatUsd } from "@/components/runs/format";
import { auditSessionReport } from "@/lib/audit";
import { NotFoundError } from "@/lib/errors";
import { readerOf } from "../../../../../api/audit/reader";
import { adminPageSession } from "../../../admin-page";

export const metadata: Metadata = { title: "Session report · Audit" };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A chat session's audit record to print: its totals, then each of its runs as the run's own report shows it. */
export default async function AuditSessionReportPage({ params }: { params: Promise<{ id: string }> }) {
  const session = await adminPageSession();
  if (!session) return null;
  const { id } = await params;
  if (!UUID.test(id)) notFound();
  const report = await auditSessionReport(readerOf(session), id.toLowerCase()).catch((e: unknown) => {
    if (e instanceof NotFoundError) notFound();
    throw e;
  });
  const { totals } = report;
  const latest = report.runs.at(-1);
  return (
    <article className="space-y-8 print:text-black [&_li]:break-inside-avoid" data-testid="session-report">
      <div className="flex flex-wrap items-center justify-between gap-2 print:hidden">
        {latest && (
          <Link
            href={`/audit/runs/${latest.run.id}`}
            className="inline-flex items-center gap-1 text-sm text-brand-700 hover:underline dark:text-brand-100"
          >
            <ArrowLeft aria-hidden className="h-4 w-4" /> Its latest run
          </Link>
        )}
        <PrintButton />
      </div>
      <header>
        <p className="text-sm text-slate-500 dark:text-slate-400">Audit report · {session.tenantName}</p>
        <h1 className="text-2xl font-semibold">Session report</h1>
        <div className="mt-3">
          <Facts
            rows={[
              ["Session", <code key="id">{report.sessionId}</code>],
              ["Runs", String(totals.runs)],
              ["Events", String(totals.events)],
              ["Tokens", formatTokens(totals.tokens)],
              ["Cost", formatUsd(totals.costUsd)],
              ["Errors", String(totals.errors)],
              ["PHI accesses", String(totals.phiAccesses)],
              ["Report made", utc(report.generatedAt)],
            ]}
          />
        </div>
        {report.runsTruncated && (
          <p className="mt-2 text-sm text-amber-700 dark:text-amber-400">
            The first {report.runs.length} of {totals.runs} runs follow; the totals above count them all.
          </p>
        )}
      </header>
      {report.runs.map((r, i) => (
        <section
          key={r.run.id}
          aria-labelledby={`session-run-${i}`}
          data-testid="session-run"
          className={`space-y-6 border-t border-slate-300 pt-6 dark:border-slate-700 ${i > 0 ? "break-before-page" : ""}`}
        >
          <h2 id={`session-run-${i}`} className="text-xl font-semibold [overflow-wrap:anywhere]">
            {i + 1}. {r.run.title || "Private consultation"}
          </h2>
          <RunReportSections report={r} prefix={`run-${i}-`} level={3} />
        </section>
      ))}
    </article>
  );
}
