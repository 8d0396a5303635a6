"use client";

import { ChevronDown, ChevronUp } from "lucide-react";
import { type ReactNode, useEffect, useId, useLayoutEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/Button";

/** Shown lines of a folded message. */
const FOLDED_LINES = 20;
/** A message folds only when it is longer than this: folding away one or two lines helps nobody. */
const FOLD_ABOVE_LINES = 24;

/**
 * A message that folds to its first ~20 lines when it is much longer, with a Show more / Show
 * less button. Lines are measured from the rendered text (wrapping included), so a long paste
 * and a long answer fold alike. Moving the keyboard focus into the hidden part unfolds it.
 */
export function LongMessage({
  children,
  enabled = true,
  initiallyExpanded = false,
  fadeClassName = "from-transparent to-slate-50 dark:to-slate-950",
  buttonClassName = "text-brand-600 hover:bg-slate-100 dark:text-brand-100 dark:hover:bg-slate-800",
}: {
  children: ReactNode;
  /** False while the text is still arriving: nothing folds under the reader's eyes. */
  enabled?: boolean;
  initiallyExpanded?: boolean;
  /** The gradient over the last shown line, ending in the background the message sits on. */
  fadeClassName?: string;
  buttonClassName?: string;
}) {
  const id = useId();
  const outer = useRef<HTMLDivElement>(null);
  const inner = useRef<HTMLDivElement>(null);
  const [expanded, setExpanded] = useState(initiallyExpanded);
  const [foldedHeight, setFoldedHeight] = useState<number | null>(null);

  useLayoutEffect(() => {
    const box = outer.current;
    const content = inner.current;
    if (!enabled || !box || !content) {
      setFoldedHeight(null);
      return;
    }
    const measure = () => {
      const style = getComputedStyle(box);
      const line = Number.parseFloat(style.lineHeight) || Number.parseFloat(style.fontSize) * 1.5 || 24;
      setFoldedHeight(content.offsetHeight > line * FOLD_ABOVE_LINES ? Math.round(line * FOLDED_LINES) : null);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(content);
    return () => observer.disconnect();
  }, [enabled]);

  const folds = foldedHeight !== null;
  const folded = folds && !expanded;

  // Tabbing to a link or citation in the hidden part unfolds the message, so focus stays visible.
  useEffect(() => {
    const box = outer.current;
    if (!folded || !box) return;
    const onFocusIn = (e: FocusEvent) => {
      const target = e.target as Element | null;
      if (target && target.getBoundingClientRect().bottom > box.getBoundingClientRect().bottom) setExpanded(true);
    };
    box.addEventListener("focusin", onFocusIn);
    return () => box.removeEventListener("focusin", onFocusIn);
  }, [folded]);

  return (
    <div>
      <div
        ref={outer}
        id={id}
        data-folded={folded || undefined}
        className={folded ? "relative overflow-hidden" : undefined}
        style={folded ? { maxHeight: foldedHeight } : undefined}
      >
        <div ref={inner}>{children}</div>
        {folded && (
          <div
            aria-hidden
            className={`pointer-events-none absolute inset-x-0 bottom-0 h-12 bg-linear-to-b ${fadeClassName}`}
          />
        )}
      </div>
      {folds && (
        <Button
          variant="ghost"
          size="xs"
          aria-expanded={expanded}
          aria-controls={id}
          onClick={() => {
            setExpanded((open) => !open);
            // Folding a long message back leaves the reader far below it: bring its start back.
            if (expanded) outer.current?.scrollIntoView({ block: "nearest" });
          }}
          className={`mt-1 gap-1 rounded px-1.5 py-0.5 ${buttonClassName}`}
        >
          {expanded ? (
            <ChevronUp aria-hidden className="h-3.5 w-3.5" />
          ) : (
            <ChevronDown aria-hidden className="h-3.5 w-3.5" />
          )}
          {expanded ? "Show less" : "Show more"}
        </Button>
      )}
    </div>
  );
}
