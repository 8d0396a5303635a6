"use client";

import { createContext, memo, type ReactNode, useContext, useMemo } from "react";
import { Streamdown } from "streamdown";
import type { SourceItem } from "@/lib/chat/contract";
import { ANSWER_REMARK_REHYPE, answerRehypePlugins } from "./answer-safety";
import { rehypeCitations, withoutPartialCitation } from "./citations";

export interface CitationTarget {
  n: number;
  quote: string;
}

interface CitationContextValue {
  sources: SourceItem[];
  onOpen: (target: CitationTarget) => void;
}

const CitationContext = createContext<CitationContextValue>({ sources: [], onOpen: () => undefined });

const NO_REMOTE_IMAGES: readonly string[] = [];
const ImageSourcesContext = createContext<readonly string[]>(NO_REMOTE_IMAGES);

/** The URL prefixes an admin allowed answers to load images from (the server reads the setting). */
export function AnswerImageSources({ sources, children }: { sources: readonly string[]; children?: ReactNode }) {
  return <ImageSourcesContext.Provider value={sources}>{children}</ImageSourcesContext.Provider>;
}

/** A `[n]` in an answer: a small button that opens the passage it cites. */
export function CitationBadge({ n, quote }: { n: number; quote: string }) {
  const { sources, onOpen } = useContext(CitationContext);
  const source = sources.find((s) => s.n === n);
  if (!source) {
    return (
      <sup className="mx-0.5 text-xs text-slate-400" title="This source is not available">
        [{n}]
      </sup>
    );
  }
  return (
    <button
      type="button"
      data-testid="citation-badge"
      aria-label={`Source ${n}: ${source.title}`}
      title={`${source.title}${source.section ? ` — ${source.section}` : ""}`}
      onClick={() => onOpen({ n, quote })}
      className="mx-0.5 inline-flex h-5 min-w-5 -translate-y-0.5 items-center justify-center rounded-full bg-brand-100 px-1.5 align-baseline text-[11px] font-semibold leading-none text-brand-700 hover:bg-brand-500 hover:text-white dark:bg-slate-700 dark:text-brand-100 dark:hover:bg-brand-600"
    >
      {n}
    </button>
  );
}

function CitationElement(props: Record<string, unknown>) {
  const n = Number(props["data-n"]);
  const quote = typeof props["data-quote"] === "string" ? props["data-quote"] : "";
  if (!Number.isInteger(n)) return <>{props.children as ReactNode}</>;
  return <CitationBadge n={n} quote={quote} />;
}

const COMPONENTS = { citation: CitationElement };

/** A streamed (or stored) answer as markdown, with its citations as badges. */
export const AnswerMarkdown = memo(function AnswerMarkdown({
  text,
  streaming,
  sources,
  onOpenCitation,
}: {
  text: string;
  streaming: boolean;
  sources: SourceItem[];
  onOpenCitation: (target: CitationTarget) => void;
}) {
  const imageSources = useContext(ImageSourcesContext);
  const rehypePlugins = useMemo(() => [...answerRehypePlugins(imageSources), rehypeCitations], [imageSources]);
  return (
    <CitationContext.Provider value={{ sources, onOpen: onOpenCitation }}>
      <Streamdown
        mode={streaming ? "streaming" : "static"}
        isAnimating={streaming}
        components={COMPONENTS}
        rehypePlugins={rehypePlugins}
        remarkRehypeOptions={ANSWER_REMARK_REHYPE}
        controls={false}
        className="answer-markdown text-[15px] leading-relaxed [&_a]:text-brand-600 [&_a]:underline [&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 dark:[&_code]:bg-slate-800"
      >
        {streaming ? withoutPartialCitation(text) : text}
      </Streamdown>
    </CitationContext.Provider>
  );
});
