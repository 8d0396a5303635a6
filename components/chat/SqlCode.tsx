"use client";

import { Check, Copy } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/Button";

type CopyState = "idle" | "copied" | "blocked";

/**
 * The statement that ran, folded away until asked for: most readers want the figures, a few
 * want to check or reuse the query.
 */
export function SqlCode({ sql }: { sql: string }) {
  const [open, setOpen] = useState(false);
  const [copy, setCopy] = useState<CopyState>("idle");
  const code = useRef<HTMLPreElement>(null);

  useEffect(() => {
    if (copy !== "copied") return;
    const timer = setTimeout(() => setCopy("idle"), 2000);
    return () => clearTimeout(timer);
  }, [copy]);

  const copySql = () => {
    // No clipboard outside a secure context, or when the browser refuses: select the text so
    // the reader can copy it by hand.
    const blocked = () => {
      setCopy("blocked");
      const pre = code.current;
      if (pre) window.getSelection()?.selectAllChildren(pre);
    };
    if (!navigator.clipboard) return blocked();
    navigator.clipboard.writeText(sql).then(() => setCopy("copied"), blocked);
  };

  return (
    <details
      data-testid="sql-code"
      onToggle={(e) => setOpen(e.currentTarget.open)}
      className="text-xs text-slate-600 dark:text-slate-300"
    >
      <summary className="w-fit cursor-pointer rounded select-none hover:text-slate-900 dark:hover:text-white">
        {open ? "Hide SQL" : "Show SQL"}
      </summary>
      <div className="mt-2 space-y-1">
        <div className="relative">
          <pre
            ref={code}
            className="max-h-72 overflow-y-auto rounded-md bg-slate-100 p-3 pr-20 font-mono text-xs break-words whitespace-pre-wrap text-slate-800 dark:bg-slate-800 dark:text-slate-100"
          >
            <code>{sql}</code>
          </pre>
          <Button
            variant="outline"
            size="xs"
            onClick={copySql}
            aria-label="Copy SQL"
            className="absolute top-2 right-2 gap-1"
          >
            {copy === "copied" ? (
              <Check aria-hidden className="h-3.5 w-3.5" />
            ) : (
              <Copy aria-hidden className="h-3.5 w-3.5" />
            )}
            {copy === "copied" ? "Copied" : "Copy"}
          </Button>
        </div>
        <p role="status" className="text-amber-700 dark:text-amber-300">
          {copy === "copied" && <span className="sr-only">SQL copied</span>}
          {copy === "blocked" && "The browser did not allow copying; the SQL is selected, so copy it with Ctrl+C (⌘C)."}
        </p>
      </div>
    </details>
  );
}
