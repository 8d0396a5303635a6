"use client";

import { X } from "lucide-react";
import { useEffect, useId, useRef } from "react";
import { Button } from "@/components/ui/Button";
import type { SourceItem } from "@/lib/chat/contract";
import type { CitationTarget } from "./AnswerMarkdown";
import { highlightPassage } from "./citations";

export interface WebSource {
  sourceId: string;
  url: string;
  title?: string;
}

function where(source: SourceItem): string {
  return [source.section, source.page != null ? `page ${source.page}` : null].filter(Boolean).join(" · ");
}

/** The passage a citation points to: title, section and page, the cited sentence highlighted. */
function SourceDetail({ source, quote, onClose }: { source: SourceItem; quote: string; onClose: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // The panel is rendered twice on a phone (beside the chat, hidden, and in its sheet).
  const titleId = useId();
  useEffect(() => {
    heading.current?.focus();
  }, []);
  const pieces = highlightPassage(source.text, quote);
  return (
    <section
      aria-labelledby={titleId}
      data-testid="source-detail"
      className="rounded-lg border border-brand-500/40 bg-white p-4 shadow-sm dark:bg-slate-900"
    >
      <div className="flex items-start gap-2">
        <span className="mt-0.5 inline-flex h-5 min-w-5 items-center justify-center rounded-full bg-brand-100 px-1.5 text-[11px] font-semibold text-brand-700 dark:bg-slate-700 dark:text-brand-100">
          {source.n}
        </span>
        <div className="min-w-0 flex-1">
          <h3 id={titleId} ref={heading} tabIndex={-1} className="font-semibold leading-snug outline-none">
            {source.title}
          </h3>
          {where(source) && <p className="text-xs text-slate-500 dark:text-slate-400">{where(source)}</p>}
          {source.externalId && <p className="font-mono text-[11px] text-slate-400 break-all">{source.externalId}</p>}
        </div>
        <Button
          variant="ghost"
          size="inline"
          aria-label="Close source"
          onClick={onClose}
          className="rounded p-1 text-slate-500 dark:text-slate-400"
        >
          <X aria-hidden className="size-4" />
        </Button>
      </div>
      <blockquote
        data-testid="source-passage"
        className="mt-3 text-sm leading-relaxed text-slate-700 dark:text-slate-300"
      >
        {pieces.map((piece, i) =>
          piece.cited ? (
            <mark
              // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one passage never reorder
              key={i}
              className="rounded bg-amber-100 px-0.5 text-slate-900 dark:bg-amber-500/30 dark:text-amber-50"
            >
              {piece.text}
            </mark>
          ) : (
            // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one passage never reorder
            <span key={i}>{piece.text}</span>
          ),
        )}
      </blockquote>
      <p className="mt-2 text-[11px] text-slate-400">Retrieval score {Number(source.score.toPrecision(3))}</p>
    </section>
  );
}

/** Every source retrieved for an answer, the cited ones marked; a citation opens one in full. */
export function SourcesPanel({
  sources,
  webSources,
  cited,
  selected,
  onSelect,
  onClose,
  loading,
}: {
  sources: SourceItem[];
  webSources: WebSource[];
  cited: number[];
  selected: CitationTarget | null;
  onSelect: (target: CitationTarget) => void;
  onClose: () => void;
  loading?: boolean;
}) {
  const open = selected ? sources.find((s) => s.n === selected.n) : undefined;
  return (
    <aside aria-label="Sources" className="flex min-h-0 flex-col gap-3 overflow-y-auto">
      {open && selected && (
        <SourceDetail
          key={`${open.chunkId}:${selected.quote}`}
          source={open}
          quote={selected.quote}
          onClose={onClose}
        />
      )}
      <div>
        <h2 className="mb-2 text-sm font-semibold">Sources{sources.length > 0 ? ` (${sources.length})` : ""}</h2>
        {loading && sources.length === 0 ? (
          <div className="space-y-2" aria-hidden>
            <div className="h-12 animate-pulse rounded-md bg-slate-200 dark:bg-slate-800" />
            <div className="h-12 animate-pulse rounded-md bg-slate-200 dark:bg-slate-800" />
          </div>
        ) : sources.length === 0 && webSources.length === 0 ? (
          <p className="text-sm text-slate-500 dark:text-slate-400">
            The passages an answer draws on appear here, with the ones it cites marked.
          </p>
        ) : (
          <ol className="space-y-2" data-testid="sources-list">
            {sources.map((source) => {
              const isCited = cited.includes(source.n);
              return (
                <li key={source.chunkId}>
                  <button
                    type="button"
                    onClick={() => onSelect({ n: source.n, quote: "" })}
                    aria-label={`Open source ${source.n}: ${source.title}`}
                    className={`w-full rounded-md border p-2 text-left text-sm hover:border-brand-500 ${
                      selected?.n === source.n
                        ? "border-brand-500 bg-brand-50 dark:bg-slate-800"
                        : "border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900"
                    }`}
                  >
                    <span className="flex items-center gap-2">
                      <span className="inline-flex h-5 min-w-5 items-center justify-center rounded-full bg-slate-100 px-1.5 text-[11px] font-semibold dark:bg-slate-800">
                        {source.n}
                      </span>
                      <span className="min-w-0 flex-1 truncate font-medium">{source.title}</span>
                      {isCited && (
                        <span className="rounded-full bg-emerald-100 px-1.5 text-[10px] font-medium text-emerald-800 dark:bg-emerald-900 dark:text-emerald-200">
                          cited
                        </span>
                      )}
                    </span>
                    {where(source) && (
                      <span className="mt-0.5 block truncate text-xs text-slate-500 dark:text-slate-400">
                        {where(source)}
                      </span>
                    )}
                  </button>
                </li>
              );
            })}
            {webSources.map((source) => (
              <li
                key={source.sourceId}
                className="rounded-md border border-slate-200 p-2 text-sm dark:border-slate-800"
              >
                <a href={source.url} target="_blank" rel="noreferrer noopener" className="text-brand-600 underline">
                  {source.title ?? source.url}
                </a>
                <span className="ml-1 text-xs text-slate-500">(web)</span>
              </li>
            ))}
          </ol>
        )}
      </div>
    </aside>
  );
}
