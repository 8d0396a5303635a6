"use client";

import { type ReactNode, useCallback, useId, useMemo, useState } from "react";
import { AnswerMarkdown, type CitationTarget } from "@/components/chat/AnswerMarkdown";
import { buttonVariants } from "@/components/ui/Button";
import type { SourceItem } from "@/lib/chat/contract";
import { type FinalReport, type ReportSource, reportUrl } from "./api";
import { ClaimList } from "./ClaimList";
import { passagePlace, TERMINATION_LABELS } from "./format";
import { QualityBreakdown } from "./QualityBreakdown";
import { SourcesPanel, sourceAnchor } from "./SourcesPanel";

/** The report's sources in the shape the chat's citation badges read. */
function asSourceItems(sources: ReportSource[]): SourceItem[] {
  return sources.map((s) => ({
    n: s.n,
    chunkId: s.chunk_id,
    documentId: s.document_id,
    title: s.document,
    text: s.excerpt,
    externalId: null,
    section: s.section,
    page: s.page,
    score: 0,
  }));
}

function Part({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="min-w-0 space-y-2" data-testid={testId}>
      <h3 id={id} className="text-base font-semibold">
        {title}
      </h3>
      {children}
    </section>
  );
}

const TIERS = [
  { key: "primary", label: "Primary", hint: "direct evidence" },
  { key: "secondary", label: "Secondary", hint: "supporting context" },
  { key: "tertiary", label: "Tertiary", hint: "background" },
] as const;

const linkButton = buttonVariants({ variant: "outline", size: "sm" });

/**
 * The finished report: the answer with its citations as badges (each opens its passage in the
 * sources panel), findings by tier, the preserved quotes, every claim verified or not, the
 * quality breakdown, and the Markdown and PDF downloads.
 */
export function ResearchReport({ runId, report }: { runId: string; report: FinalReport }) {
  const items = useMemo(() => asSourceItems(report.sources), [report.sources]);
  const [open, setOpen] = useState<CitationTarget | null>(null);

  const openSource = useCallback((target: CitationTarget) => {
    setOpen(target);
    // After the panel has rendered the passage open.
    requestAnimationFrame(() => {
      const el = document.getElementById(sourceAnchor(target.n));
      el?.scrollIntoView({ block: "nearest", behavior: "smooth" });
      el?.focus({ preventScroll: true });
    });
  }, []);

  const anyFinding = TIERS.some((t) => report.findings[t.key].length > 0);

  return (
    <div className="space-y-6" data-testid="research-report" lang={report.language}>
      <div className="flex flex-wrap items-center gap-2">
        <a className={linkButton} href={reportUrl(runId, "markdown")} download data-testid="download-markdown">
          Download Markdown
        </a>
        <a className={linkButton} href={reportUrl(runId, "pdf")} download data-testid="download-pdf">
          Download PDF
        </a>
        <span className="text-xs text-slate-500 dark:text-slate-400">
          {report.engine === "offline" ? "Written without a model (offline engine)" : `Written by ${report.engine}`}
          {report.termination_reason && ` · clarification ended: ${TERMINATION_LABELS[report.termination_reason]}`}
        </span>
      </div>
      {report.drift_warning && (
        <p
          role="alert"
          data-testid="drift-warning"
          className="rounded-md border border-amber-400 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950/40 dark:text-amber-100"
        >
          <span className="font-semibold">Drift warning: </span>
          {report.drift_warning}
        </p>
      )}
      <div className="grid grid-cols-1 gap-6 xl:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="min-w-0 space-y-6">
          <div
            className="min-w-0 rounded-xl border border-slate-200 bg-white p-4 [overflow-wrap:anywhere] dark:border-slate-800 dark:bg-slate-900"
            data-testid="research-answer"
          >
            <AnswerMarkdown text={report.answer} streaming={false} sources={items} onOpenCitation={openSource} />
          </div>
          <Part title="Findings by tier" testId="research-findings">
            {anyFinding ? (
              TIERS.map((tier) =>
                report.findings[tier.key].length === 0 ? null : (
                  <div key={tier.key} data-testid="findings-tier" data-tier={tier.key}>
                    <p className="text-sm font-medium">
                      {tier.label} <span className="text-xs font-normal text-slate-500">· {tier.hint}</span>
                    </p>
                    <ul className="list-disc space-y-1 pl-5 text-sm">
                      {report.findings[tier.key].map((f) => (
                        <li key={f} className="[overflow-wrap:anywhere]">
                          {f}
                        </li>
                      ))}
                    </ul>
                  </div>
                ),
              )
            ) : (
              <p className="text-sm text-slate-500">No findings.</p>
            )}
          </Part>
          <Part title="Quotes" testId="research-quotes">
            {report.quotes.length === 0 ? (
              <p className="text-sm text-slate-500">No quotes were kept.</p>
            ) : (
              <ul className="space-y-2">
                {report.quotes.map((q) => (
                  <li key={`${q.chunk_id}:${q.quote}`} data-testid="research-quote">
                    <blockquote className="border-l-4 border-brand-300 pl-3 text-sm italic [overflow-wrap:anywhere] dark:border-brand-700">
                      {q.quote}
                    </blockquote>
                    <p className="pl-4 text-xs text-slate-600 [overflow-wrap:anywhere] dark:text-slate-400">
                      — {passagePlace({ document: q.source, page: q.page })}
                    </p>
                  </li>
                ))}
              </ul>
            )}
          </Part>
          <Part title="Claims" testId="research-claims">
            <ClaimList claims={report.claims} onOpen={(n, quote) => openSource({ n, quote })} />
          </Part>
        </div>
        <aside className="min-w-0 space-y-6" aria-label="Sources and quality">
          <Part title="Sources">
            <SourcesPanel
              sources={report.sources}
              open={open}
              onOpen={(n) => (open?.n === n ? setOpen(null) : openSource({ n, quote: "" }))}
            />
          </Part>
          <Part title="Quality">
            <QualityBreakdown quality={report.quality} />
          </Part>
        </aside>
      </div>
    </div>
  );
}
