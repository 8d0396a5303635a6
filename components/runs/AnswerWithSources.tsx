"use client";

import { useCallback, useMemo, useState } from "react";
import { AnswerMarkdown, type CitationTarget } from "@/components/chat/AnswerMarkdown";
import { highlightPassage } from "@/components/chat/citations";
import type { SourceItem } from "@/lib/chat/contract";
import type { AutonomousPublicState } from "./api";

type RunSource = AutonomousPublicState["sources"][number];

/** The run's numbered passages in the shape the chat's citation badges read. */
function asSourceItems(sources: RunSource[]): SourceItem[] {
  return sources.map((s) => ({
    n: s.n,
    chunkId: s.chunkId,
    documentId: s.documentId,
    title: s.title,
    text: s.text,
    externalId: null,
    section: null,
    page: null,
    score: 0,
  }));
}

const citedIn = (text: string) =>
  new Set(
    [...text.matchAll(/\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/g)].flatMap((m) =>
      m[1].split(",").map((n) => Number(n.trim())),
    ),
  );

/**
 * An answer with the chat's citation markdown, and the sources it cites listed under it: each
 * `[n]` takes the reader to source n, with the sentence it backs highlighted in the passage.
 */
export function AnswerWithSources({
  text,
  sources,
  idPrefix,
}: {
  text: string;
  sources: RunSource[];
  /** Keeps the sources' anchors apart when two answers are on the page. */
  idPrefix: string;
}) {
  const items = useMemo(() => asSourceItems(sources), [sources]);
  const cited = useMemo(() => citedIn(text), [text]);
  const listed = sources.filter((s) => cited.has(s.n));
  const [selected, setSelected] = useState<CitationTarget | null>(null);

  const open = useCallback(
    (target: CitationTarget) => {
      setSelected(target);
      const el = document.getElementById(`${idPrefix}-source-${target.n}`);
      el?.scrollIntoView({ block: "nearest", behavior: "smooth" });
      el?.focus({ preventScroll: true });
    },
    [idPrefix],
  );

  return (
    <div className="space-y-4">
      <div className="min-w-0 [overflow-wrap:anywhere]" data-testid="run-answer">
        <AnswerMarkdown text={text} streaming={false} sources={items} onOpenCitation={open} />
      </div>
      {listed.length > 0 && (
        <section aria-label="Sources" className="space-y-2">
          <h3 className="text-sm font-semibold">Sources</h3>
          <ol className="space-y-2">
            {listed.map((source) => {
              const isSelected = selected?.n === source.n;
              const pieces = highlightPassage(source.text, isSelected ? selected?.quote : undefined);
              return (
                <li
                  key={source.n}
                  id={`${idPrefix}-source-${source.n}`}
                  tabIndex={-1}
                  data-testid="run-source"
                  data-n={source.n}
                  className={`rounded-md border p-2 text-sm outline-none ${
                    isSelected ? "border-brand-500 ring-1 ring-brand-500" : "border-slate-200 dark:border-slate-700"
                  }`}
                >
                  <p className="font-medium [overflow-wrap:anywhere]">
                    <span className="mr-1 text-brand-700 dark:text-brand-100">[{source.n}]</span>
                    {source.title}
                  </p>
                  <p
                    className={`mt-1 text-xs text-slate-600 [overflow-wrap:anywhere] dark:text-slate-400 ${isSelected ? "" : "line-clamp-3"}`}
                  >
                    {pieces.map((piece, i) =>
                      piece.cited && isSelected ? (
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
                </li>
              );
            })}
          </ol>
        </section>
      )}
    </div>
  );
}
