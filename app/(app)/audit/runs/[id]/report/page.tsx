import { ArrowLeft } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { PrintButton, VerifyChainButton } from "@/components/audit/ReportActions";
import { CheckpointDecisions, EvidenceClaims, ValidationList } from "@/components/audit/RunRecords";
import { formatTokens, formatUsd, RUN_STATUS_LABELS } from "@/components/runs/format";
import { auditRunReport } from "@/lib/audit";
import type { AuditRunReport } from "@/lib/audit/contract";
import { NotFoundError } from "@/lib/errors";
import { readerOf } from "../../../../../api/audit/reader";
import { adminPageSession } from "../../../admin-page";

export const metadata: Metadata = { title: "Run report · Audit" };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A printed record names its instants unambiguously: UTC, to the second. */
const utc = (at: string | null) => (at ? `${at.slice(0, 10)} ${at.slice(11, 19)} UTC` : "—");

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} data-testid={id} className="min-w-0">
      <h2 id={id} className="mb-2 text-lg font-semibold break-after-avoid">
        {title}
      </h2>
      {children}
    </section>
  );
}

function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-slate-500 dark:text-slate-400">{label}</dt>
          <dd className="mb-1 min-w-0 [overflow-wrap:anywhere] sm:mb-0">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

const person = (p: { id: string; name: string | null } | null) => (p ? (p.name ? `${p.name} (${p.id})` : p.id) : "—");

function ChainFacts({ report }: { report: AuditRunReport }) {
  const { chain } = report;
  const v = chain.verification;
  let verdict = "The chain has not been verified yet.";
  if (v?.status === "broken" && v.firstBroken) {
    verdict = `Broken: rows 1 to ${v.checked} held; row ${v.firstBroken.seq} is the first that does not (${v.firstBroken.reason}).`;
  } else if (v?.status === "ok") {
    verdict = chain.coversRun
      ? `Verified: every row up to ${v.checked} held, this run's included.`
      : `Verified up to row ${v.checked}, before this run's last event${chain.runLastSeq ? ` (row ${chain.runLastSeq})` : ""}: verify again to cover it.`;
  }
  return (
    <div data-status={v?.status ?? "unverified"} data-covers-run={chain.coversRun} data-testid="report-chain">
      <p className="mb-2 text-sm font-medium">{verdict}</p>
      <Facts
        rows={[
          ["Last verified", v ? `${utc(v.verifiedAt)} by ${v.verifiedBy}` : "never"],
          [
            "This run's rows",
            chain.runFirstSeq === null ? "none chained yet" : `${chain.runFirstSeq} to ${chain.runLastSeq}`,
          ],
          ["Hash of its last row", <code key="run">{chain.runLastHash ?? "—"}</code>],
          ["Chain head", chain.headSeq > 0 ? `row ${chain.headSeq}` : "empty"],
          ["Head hash", <code key="head">{chain.headHash ?? "—"}</code>],
        ]}
      />
      <div className="mt-3">
        <VerifyChainButton />
      </div>
    </div>
  );
}

function Steps({ report }: { report: AuditRunReport }) {
  if (report.timeline.length === 0)
    return <p className="text-sm text-slate-500">No trace event is chained for this run yet.</p>;
  const cell = "px-2 py-1 align-top";
  return (
    <div className="max-w-full overflow-x-auto print:overflow-visible">
      <table className="w-full text-left text-xs tabular-nums">
        <thead className="border-b border-slate-300 text-slate-500 dark:border-slate-700 dark:text-slate-400">
          <tr>
            {["Row", "Time (UTC)", "Event", "Node · agent", "ms", "Tokens", "Cost", "Result"].map((h) => (
              <th key={h} scope="col" className={`${cell} font-medium whitespace-nowrap`}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {report.timeline.map((e) => (
            <tr
              key={e.id}
              data-testid="report-step"
              className="border-b border-slate-100 break-inside-avoid dark:border-slate-800"
            >
              <td className={cell}>{e.seq}</td>
              <td className={`${cell} whitespace-nowrap`}>{e.at.slice(11, 19)}</td>
              <td className={cell}>
                {e.eventType}
                {e.phiAccessed && <span className="ml-1 font-semibold text-red-700 dark:text-red-400">PHI</span>}
              </td>
              <td className={`${cell} [overflow-wrap:anywhere]`}>
                {[e.nodeName, e.agentId].filter(Boolean).join(" · ") || "—"}
              </td>
              <td className={cell}>{e.durationMs ?? ""}</td>
              <td className={cell}>{e.tokensUsed ?? ""}</td>
              <td className={cell}>{e.costUsd ? formatUsd(e.costUsd) : ""}</td>
              <td className={`${cell} [overflow-wrap:anywhere]`}>
                {e.success ? "ok" : <span className="text-red-700 dark:text-red-400">{e.error ?? "error"}</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {report.timelineTruncated && (
        <p className="mt-1 text-xs text-slate-500">
          The first {report.timeline.length} of {report.totals.events} events; the totals count them all.
        </p>
      )}
    </div>
  );
}

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
  const { run, totals } = report;
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
      <Section id="report-request" title="Request">
        <Facts
          rows={[
            ["Run", <code key="id">{run.id}</code>],
            ["Workflow", run.workflow],
            ["Agent", run.agent ? `${run.agent.name} (${run.agent.slug})` : "—"],
            ["Started by", person({ id: run.user.id, name: run.user.name })],
            ["Asked through", person(report.askedBy)],
            ["Done for", person(report.requestedFor)],
            ["Chat session", run.chatSessionId ?? "—"],
            ["Started", utc(run.createdAt)],
            ["Finished", utc(run.finishedAt)],
            ["Status", `${RUN_STATUS_LABELS[run.status]}${run.error ? ` — ${run.error}` : ""}`],
            ["Report made", utc(report.generatedAt)],
          ]}
        />
      </Section>
      <Section id="report-totals" title="Cost and activity">
        <Facts
          rows={[
            ["Events", String(totals.events)],
            ["Tokens", formatTokens(totals.tokens)],
            ["Cost", formatUsd(totals.costUsd)],
            ["Time in steps", `${(totals.durationMs / 1000).toFixed(1)} s`],
            ["Errors", String(totals.errors)],
            ["PHI accesses", String(totals.phiAccesses)],
            ["Checkpoints", String(report.checkpoints.length)],
          ]}
        />
      </Section>
      <Section id="report-chain-heading" title="Chain verification">
        <ChainFacts report={report} />
      </Section>
      <Section id="report-steps" title="Steps">
        <Steps report={report} />
      </Section>
      <Section id="report-decisions" title="Checkpoints and decisions">
        <CheckpointDecisions checkpoints={report.checkpoints} />
      </Section>
      <Section id="report-validations" title="Constitutional validations">
        <ValidationList validations={report.validations} />
      </Section>
      <Section id="report-evidence" title="Evidence per claim">
        <EvidenceClaims claims={report.evidence} />
      </Section>
    </article>
  );
}
