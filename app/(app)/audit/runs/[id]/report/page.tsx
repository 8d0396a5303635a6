import { ArrowLeft } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { PrintButton } from "@/components/audit/ReportActions";
import { RunReportSections } from "@/components/audit/RunReport";
import { auditRunReport } from "@/lib/audit";
import { NotFoundError } from "@/lib/errors";
import { readerOf } from "../../../../../api/audit/reader";
import { adminPageSession } from "../../../admin-page";

export const metadata: Metadata = { title: "Run report · Audit" };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * One run's audit record on one page, made to print: who asked, every step, every decision,
 * the checks and evidence, the cost, and where the run sits in the verified chain.
 */
export default async function AuditRunReportPage({ params }: { params: Promise<{ id: string }> }) {
  const session = await adminPageSession();
  if (!session) return null;
  const { id } = await params;
  if (!UUID.test(id)) notFound();
  const report = await auditRunReport(readerOf(session), id.toLowerCase()).catch((e: unknown) => {
    if (e instanceof NotFoundError) notFound();
    throw e;
  });
  const { run } = report;
  return (
    <article className="space-y-8 print:text-black [&_li]:break-inside-avoid" data-testid="run-report">
      <div className="flex flex-wrap items-center justify-between gap-2 print:hidden">
        <Link
          href={`/audit/runs/${run.id}`}
          className="inline-flex items-center gap-1 text-sm text-brand-700 hover:underline dark:text-brand-100"
        >
          <ArrowLeft aria-hidden className="h-4 w-4" /> Back to the run
        </Link>
        <PrintButton />
      </div>
      <header>
        <p className="text-sm text-slate-500 dark:text-slate-400">Audit report · {session.tenantName}</p>
        <h1 className="text-2xl font-semibold [overflow-wrap:anywhere]">{run.title || "Private consultation"}</h1>
        {run.title === null && (
          <p className="text-sm text-slate-600 dark:text-slate-400">
            What was asked stays with the person who asked it; the steps, decisions and cost are below.
          </p>
        )}
      </header>
      <RunReportSections report={report} />
    </article>
  );
}
