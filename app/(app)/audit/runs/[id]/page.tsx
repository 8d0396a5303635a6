import { ArrowLeft, FileText } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { AuditHierarchy } from "@/components/audit/AuditHierarchy";
import { CheckpointDecisions, EvidenceClaims, ValidationList } from "@/components/audit/RunRecords";
import { RunTimeline } from "@/components/audit/RunTimeline";
import { Chip } from "@/components/runs/Badges";
import { formatTokens, formatUsd, formatWhen, RUN_STATUS_LABELS } from "@/components/runs/format";
import { auditRunDetail } from "@/lib/audit";
import { NotFoundError } from "@/lib/errors";
import { readerOf } from "../../../../api/audit/reader";
import { adminPageSession } from "../../admin-page";

export const metadata: Metadata = { title: "Run audit" };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="min-w-0">
      <h2 id={id} className="mb-2 text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-md border border-slate-200 bg-white px-3 py-2 dark:border-slate-800 dark:bg-slate-900">
      <dt className="text-xs text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className="font-semibold tabular-nums">{value}</dd>
    </div>
  );
}

/** One run's audit record, read in one go on the server (the timeline filters in the browser). */
export default async function AuditRunPage({ params }: { params: Promise<{ id: string }> }) {
  const session = await adminPageSession();
  if (!session) return null;
  const { id } = await params;
  if (!UUID.test(id)) notFound();
  const detail = await auditRunDetail(readerOf(session), id.toLowerCase()).catch((e: unknown) => {
    if (e instanceof NotFoundError) notFound();
    throw e;
  });
  const { run, totals } = detail;
  return (
    <div className="space-y-8">
      <div>
        <Link
          href="/audit"
          className="mb-3 inline-flex items-center gap-1 text-sm text-brand-700 hover:underline dark:text-brand-100"
        >
          <ArrowLeft aria-hidden className="h-4 w-4" /> All runs
        </Link>
        <h1 className="text-2xl font-semibold [overflow-wrap:anywhere]">{run.title || "Private consultation"}</h1>
        <div className="mt-2 flex flex-wrap items-center gap-2 text-sm text-slate-600 dark:text-slate-400">
          <Chip tone={run.status === "completed" ? "green" : run.status === "failed" ? "red" : "grey"}>
            {RUN_STATUS_LABELS[run.status]}
          </Chip>
          <Chip>{run.workflow}</Chip>
          <span>
            Started {formatWhen(run.createdAt)} by {run.user.name ?? run.user.id}
            {run.agent ? ` with ${run.agent.name}` : ""}
            {run.finishedAt ? ` · finished ${formatWhen(run.finishedAt)}` : ""}
          </span>
        </div>
        {run.error && <p className="mt-2 text-sm text-red-700 dark:text-red-400">{run.error}</p>}
        <Link
          href={`/audit/runs/${run.id}/report`}
          className="mt-3 inline-flex items-center gap-1 text-sm text-brand-700 hover:underline dark:text-brand-100"
        >
          <FileText aria-hidden className="h-4 w-4" /> Printable report
        </Link>
        {run.chatSessionId && (
          <Link
            href={`/audit/sessions/${run.chatSessionId}/report`}
            className="mt-3 ml-4 inline-flex items-center gap-1 text-sm text-brand-700 hover:underline dark:text-brand-100"
          >
            <FileText aria-hidden className="h-4 w-4" /> Its session's report
          </Link>
        )}
        <dl className="mt-4 grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-6">
          <Figure label="Events" value={String(totals.events)} />
          <Figure label="Tokens" value={formatTokens(totals.tokens)} />
          <Figure label="Cost" value={formatUsd(totals.costUsd)} />
          <Figure label="Errors" value={String(totals.errors)} />
          <Figure label="PHI accesses" value={String(totals.phiAccesses)} />
          <Figure label="Checkpoints" value={String(detail.checkpoints.length)} />
        </dl>
      </div>
      <div className="grid grid-cols-1 gap-8 lg:grid-cols-2">
        <Section id="timeline-heading" title="Timeline">
          <RunTimeline events={detail.timeline} truncated={detail.timelineTruncated} />
        </Section>
        <div className="min-w-0 space-y-8">
          <Section id="hierarchy-heading" title="Sub-agent hierarchy">
            <AuditHierarchy roots={detail.hierarchy} />
          </Section>
          <Section id="checkpoints-heading" title="Checkpoints and decisions">
            <CheckpointDecisions checkpoints={detail.checkpoints} />
          </Section>
          <Section id="validations-heading" title="Constitutional validations">
            <ValidationList validations={detail.validations} />
          </Section>
          <Section id="evidence-heading" title="Evidence">
            <EvidenceClaims claims={detail.evidence} />
          </Section>
        </div>
      </div>
    </div>
  );
}
