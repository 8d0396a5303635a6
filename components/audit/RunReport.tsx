import type { ReactNode } from "react";
import { formatTokens, formatUsd, RUN_STATUS_LABELS } from "@/components/runs/format";
import type { AuditRunReport } from "@/lib/audit/contract";
import { VerifyChainButton } from "./ReportActions";
import { CheckpointDecisions, EvidenceClaims, ValidationList } from "./RunRecords";

// The printable report's sections for one run, shared by the run's report and its session's.

/** A printed record names its instants unambiguously: UTC, to the second. */
export const utc = (at: string | null) => (at ? `${at.slice(0, 10)} ${at.slice(11, 19)} UTC` : "—");

function Section({ id, title, level, children }: { id: string; title: string; level: 2 | 3; children: ReactNode }) {
  const Heading = level === 2 ? "h2" : "h3";
  return (
    <section aria-labelledby={id} data-testid={id} className="min-w-0">
      <Heading id={id} className={`mb-2 font-semibold break-after-avoid ${level === 2 ? "text-lg" : "text-base"}`}>
        {title}
      </Heading>
      {children}
    </section>
  );
}

export function Facts({ rows }: { rows: [string, ReactNode][] }) {
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

export const person = (p: { id: string; name: string | null } | null) =>
  p ? (p.name ? `${p.name} (${p.id})` : p.id) : "—";

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
 * One run's record, section by section: the request, totals, its place in the verified chain,
 * every step, every decision, the checks and the evidence. `prefix` keeps ids apart when a
 * session's report shows several runs; `level` is the sections' heading level.
 */
export function RunReportSections({
  report,
  prefix = "",
  level = 2,
}: {
  report: AuditRunReport;
  prefix?: string;
  level?: 2 | 3;
}) {
  const { run, totals } = report;
  return (
    <>
      <Section id={`${prefix}report-request`} level={level} title="Request">
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
      <Section id={`${prefix}report-totals`} level={level} title="Cost and activity">
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
      <Section id={`${prefix}report-chain-heading`} level={level} title="Chain verification">
        <ChainFacts report={report} />
      </Section>
      <Section id={`${prefix}report-steps`} level={level} title="Steps">
        <Steps report={report} />
      </Section>
      <Section id={`${prefix}report-decisions`} level={level} title="Checkpoints and decisions">
        <CheckpointDecisions checkpoints={report.checkpoints} />
      </Section>
      <Section id={`${prefix}report-validations`} level={level} title="Constitutional validations">
        <ValidationList validations={report.validations} />
      </Section>
      <Section id={`${prefix}report-evidence`} level={level} title="Evidence per claim">
        <EvidenceClaims claims={report.evidence} />
      </Section>
    </>
  );
}
