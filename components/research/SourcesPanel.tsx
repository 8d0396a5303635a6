"use client";

import { highlightPassage } from "@/components/chat/citations";
import { safeHref } from "@/components/ui/links";
import type { ReportSource } from "./api";
import { passagePlace, TIER_LABELS } from "./format";

/** Where a source's entry is, so a citation can bring it into view. */
export const sourceAnchor = (n: number) => `research-source-${n}`;

/**
 * The report's numbered sources. The open one shows its passage whole — document, section, page
 * and excerpt — with the words the citation rests on marked; the others show a line of it.
 */
export function SourcesPanel({
  sources,
  open,
  onOpen,
}: {
  sources: ReportSource[];
  open: { n: number; quote: string } | null;
  onOpen: (n: number) => void;
}) {
  if (sources.length === 0) return <p className="text-sm text-slate-500">No sources.</p>;
  return (
    <ol className="space-y-2" aria-label="Sources" data-testid="research-sources">
      {[...sources]
        .sort((a, b) => a.n - b.n)
        .map((source) => {
          const isOpen = open?.n === source.n;
          const pieces = highlightPassage(source.excerpt, isOpen ? open?.quote : undefined);
          return (
            <li
              key={source.n}
              id={sourceAnchor(source.n)}
              tabIndex={-1}
              data-testid="research-source"
              data-n={source.n}
              data-open={isOpen ? "true" : "false"}
              className={`rounded-md border bg-white p-2 text-sm outline-none dark:bg-slate-900 ${
                isOpen ? "border-brand-500 ring-1 ring-brand-500" : "border-slate-200 dark:border-slate-700"
              }`}
            >
              <button
                type="button"
                onClick={() => onOpen(source.n)}
                aria-expanded={isOpen}
                className="w-full text-left"
              >
                <span className="font-medium [overflow-wrap:anywhere]">
                  <span className="mr-1 text-brand-700 dark:text-brand-100">[{source.n}]</span>
                  {source.document}
                </span>
                <span className="ml-1 text-xs text-slate-500 dark:text-slate-400">({TIER_LABELS[source.tier]})</span>
              </button>
              <WebAddress source={source} />
              {isOpen ? (
                <div className="mt-1 space-y-1" data-testid="source-passage">
                  <p
                    className="text-xs text-slate-600 [overflow-wrap:anywhere] dark:text-slate-400"
                    data-testid="source-place"
                  >
                    {passagePlace(source)}
                  </p>
                  <p className="text-sm [overflow-wrap:anywhere]">
                    {pieces.map((piece, i) =>
                      piece.cited ? (
                        // biome-ignore lint/suspicious/noArrayIndexKey: pieces are positional
                        <mark key={i} className="bg-amber-100 dark:bg-amber-900/60 dark:text-amber-50">
                          {piece.text}
                        </mark>
                      ) : (
                        // biome-ignore lint/suspicious/noArrayIndexKey: pieces are positional
                        <span key={i}>{piece.text}</span>
                      ),
                    )}
                  </p>
                </div>
              ) : (
                <p className="mt-1 line-clamp-1 text-xs text-slate-600 [overflow-wrap:anywhere] dark:text-slate-400">
                  {passagePlace(source)}
                </p>
              )}
            </li>
          );
        })}
    </ol>
  );
}

/**
 * A fallback search result (`web_search`) opens at its address, in a new tab that cannot reach
 * back into this page (noopener noreferrer). Only http(s) addresses become links; another
 * address is shown as text, so the reader still sees where the passage came from.
 */
function WebAddress({ source }: { source: ReportSource }) {
  const web = source.source_type === "web_search" || (source.source_type === undefined && source.url);
  if (!web || !source.url) return null;
  const href = safeHref(source.url);
  if (!href) {
    return (
      <p className="mt-1 text-xs text-slate-600 [overflow-wrap:anywhere] dark:text-slate-400" data-testid="source-url">
        {source.url} (not a web address; not opened)
      </p>
    );
  }
  return (
    <p className="mt-1 text-xs [overflow-wrap:anywhere]">
      <a
        href={href}
        target="_blank"
        rel="noopener noreferrer"
        className="text-brand-600 underline dark:text-brand-100"
        data-testid="source-url"
      >
        {new URL(href).host}
        <span className="sr-only"> (web source, opens in a new tab)</span>
      </a>
    </p>
  );
}
