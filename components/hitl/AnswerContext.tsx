"use client";

import { useCallback, useId, useState } from "react";
import { AnswerMarkdown, type CitationTarget } from "@/components/chat/AnswerMarkdown";
import { Button } from "@/components/ui/Button";
import { safeHref } from "@/components/ui/links";
import type { AnswerReviewContext, SourceItem } from "@/lib/chat/contract";
import { ago, formatTime } from "./format";

const SNIPPET_CHARS = 280;

function where(source: SourceItem): string {
  return [source.section, source.page != null ? `page ${source.page}` : null].filter(Boolean).join(" · ");
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= SNIPPET_CHARS) return flat;
  const cut = flat.slice(0, SNIPPET_CHARS);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), SNIPPET_CHARS - 40))}…`;
}

function Source({
  source,
  anchor,
  cited,
  highlighted,
}: {
  source: SourceItem;
  anchor: string;
  cited: boolean;
  highlighted: boolean;
}) {
  const [full, setFull] = useState(false);
  const href = safeHref(source.url);
  const snippet = clip(source.text);
  const long = snippet !== source.text.replace(/\s+/g, " ").trim();
  return (
    <li
      id={anchor}
      tabIndex={-1}
      data-testid="context-source"
      className={`rounded-md border p-2.5 outline-none ${
        highlighted ? "border-brand-500 ring-1 ring-brand-500" : "border-slate-200 dark:border-slate-700"
      }`}
    >
      <div className="flex items-start gap-2">
        <span className="mt-0.5 inline-flex h-5 min-w-5 shrink-0 items-center justify-center rounded-full bg-brand-100 px-1.5 text-[11px] font-semibold text-brand-700 dark:bg-slate-700 dark:text-brand-100">
          {source.n}
        </span>
        <div className="min-w-0 flex-1">
          <p className="text-sm font-medium break-words" data-testid="context-source-title">
            {href ? (
              <a href={href} target="_blank" rel="noopener noreferrer" className="text-brand-600 underline">
                {source.title}
                <span className="sr-only"> (opens in a new tab)</span>
              </a>
            ) : (
              source.title
            )}
          </p>
          {(where(source) || !cited) && (
            <p className="text-xs text-slate-500 dark:text-slate-400">
              {where(source)}
              {!cited && `${where(source) ? " · " : ""}retrieved, not cited`}
            </p>
          )}
        </div>
      </div>
      <p className="mt-1.5 text-sm leading-relaxed break-words whitespace-pre-wrap text-slate-700 dark:text-slate-300">
        {full ? source.text : snippet}
      </p>
      {long && (
        <Button
          variant="link"
          size="inline"
          aria-expanded={full}
          onClick={() => setFull(!full)}
          className="mt-1 text-xs"
        >
          {full ? "Show less" : "Show the whole passage"}
        </Button>
      )}
    </li>
  );
}

/**
 * What a reviewer of a chat answer decides with: the question and who asked it when, the agent,
 * the answer with its citations, and the sources it was written from.
 */
export function AnswerContext({ context }: { context: AnswerReviewContext }) {
  const ids = useId();
  const [highlighted, setHighlighted] = useState<number | null>(null);
  const anchor = useCallback((n: number) => `${ids}-source-${n}`, [ids]);
  const openCitation = useCallback(
    ({ n }: CitationTarget) => {
      setHighlighted(n);
      const item = document.getElementById(anchor(n));
      item?.scrollIntoView({ block: "nearest", behavior: "smooth" });
      item?.focus({ preventScroll: true });
    },
    [anchor],
  );
  const askedAt = Date.parse(context.askedAt);
  const asker = context.asker.name ?? context.asker.id;
  const { confidence } = context.answer;

  return (
    <section
      aria-labelledby={`${ids}-title`}
      data-testid="answer-context"
      className="space-y-4 rounded-lg border border-slate-200 bg-slate-50 p-3 sm:p-4 dark:border-slate-700 dark:bg-slate-950/40"
    >
      <div className="space-y-1.5">
        <h3 id={`${ids}-title`} className="text-sm font-semibold">
          The question
        </h3>
        <blockquote
          data-testid="context-question"
          className="border-l-2 border-brand-500 pl-3 text-sm whitespace-pre-wrap break-words"
        >
          {context.question || <span className="text-slate-400">(no question found)</span>}
        </blockquote>
        <p className="text-xs text-slate-600 dark:text-slate-400" data-testid="context-asker">
          Asked by <span className="font-medium text-slate-900 dark:text-slate-100">{asker}</span>
          {Number.isFinite(askedAt) && (
            <>
              {" "}
              <time dateTime={new Date(askedAt).toISOString()} title={new Date(askedAt).toLocaleString()}>
                {ago(askedAt)}
              </time>{" "}
              <span className="text-slate-400">({formatTime(askedAt)})</span>
            </>
          )}{" "}
          · to{" "}
          <span className="font-medium text-slate-900 dark:text-slate-100">
            {context.agent.name || context.agent.slug}
          </span>
        </p>
      </div>

      <div className="space-y-1.5">
        <h3 className="flex flex-wrap items-baseline gap-x-2 text-sm font-semibold">
          The agent's answer
          {confidence !== null && (
            <span className="text-xs font-normal text-slate-500 dark:text-slate-400" data-testid="context-confidence">
              confidence {Math.round(confidence * 100)}%
            </span>
          )}
        </h3>
        <div data-testid="context-answer" className="min-w-0 overflow-x-auto break-words">
          <AnswerMarkdown
            text={context.answer.text}
            streaming={false}
            sources={context.sources}
            onOpenCitation={openCitation}
          />
        </div>
      </div>

      <div className="space-y-1.5">
        <h3 className="text-sm font-semibold">Sources ({context.sources.length})</h3>
        {context.sources.length === 0 ? (
          <p className="text-sm text-slate-500">The answer used no source.</p>
        ) : (
          <ol className="space-y-2" data-testid="context-sources">
            {context.sources.map((source) => (
              <Source
                key={`${source.n}:${source.chunkId}`}
                source={source}
                anchor={anchor(source.n)}
                cited={context.answer.citations.includes(source.n)}
                highlighted={highlighted === source.n}
              />
            ))}
          </ol>
        )}
      </div>
    </section>
  );
}
