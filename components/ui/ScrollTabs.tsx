"use client";

import { type ReactNode, useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { cn } from "./cn";

const useIsomorphicLayoutEffect = typeof window === "undefined" ? useEffect : useLayoutEffect;

/**
 * A row of tabs that scrolls sideways when it is wider than the screen: a fading edge shows on the
 * side where more tabs are, and the current tab (`aria-current="page"`) is scrolled into view.
 * `children` are the tab links, each marking itself current.
 */
export function ScrollTabs({
  label,
  className,
  listClassName,
  activeKey,
  children,
}: {
  label: string;
  className?: string;
  listClassName?: string;
  /** Changes when the current tab does, so it is brought into view again. */
  activeKey?: string;
  children: ReactNode;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const [edges, setEdges] = useState({ start: false, end: false });

  const measure = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    const start = el.scrollLeft > 1;
    const end = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
    setEdges((prev) => (prev.start === start && prev.end === end ? prev : { start, end }));
  }, []);

  // activeKey is in the list only to bring a newly current tab into view.
  useIsomorphicLayoutEffect(() => {
    const el = scroller.current;
    const active = el?.querySelector<HTMLElement>('[aria-current="page"]');
    if (el && active) {
      const left = active.offsetLeft - el.offsetLeft;
      const right = left + active.offsetWidth;
      if (left < el.scrollLeft) el.scrollLeft = Math.max(0, left - 24);
      else if (right > el.scrollLeft + el.clientWidth) el.scrollLeft = right - el.clientWidth + 24;
    }
    measure();
  }, [activeKey, measure]);

  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [measure]);

  const fade = "pointer-events-none absolute inset-y-0 w-8 from-slate-50 to-transparent dark:from-slate-950";
  return (
    <nav aria-label={label} className={cn("relative", className)}>
      <div
        ref={scroller}
        onScroll={measure}
        data-testid="scroll-tabs"
        className="overflow-x-auto [scrollbar-width:thin]"
      >
        {/* The row's base line is drawn inside the list (an inset shadow), so the current tab's
            underline covers it without reaching outside the scroller, which would clip it. */}
        <ul
          className={cn(
            "flex w-max min-w-full gap-1 shadow-[inset_0_-1px_0_var(--color-slate-200)] dark:shadow-[inset_0_-1px_0_var(--color-slate-800)]",
            listClassName,
          )}
        >
          {children}
        </ul>
      </div>
      <span
        aria-hidden
        data-testid="scroll-tabs-more-start"
        className={cn(fade, "left-0 bg-gradient-to-r", edges.start ? "opacity-100" : "opacity-0")}
      />
      <span
        aria-hidden
        data-testid="scroll-tabs-more-end"
        className={cn(fade, "right-0 bg-gradient-to-l", edges.end ? "opacity-100" : "opacity-0")}
      />
    </nav>
  );
}

/** The look of one tab link in a ScrollTabs row. */
export function tabClass(active: boolean): string {
  return cn(
    "block shrink-0 border-b-2 px-3 py-2 text-sm whitespace-nowrap",
    active
      ? "border-brand-600 font-medium text-brand-700 dark:text-brand-100"
      : "border-transparent text-slate-600 hover:text-slate-900 dark:text-slate-300 dark:hover:text-white",
  );
}
