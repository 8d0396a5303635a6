import type { DocumentSection } from "./api";
import { pageRange } from "./ChunkList";

/**
 * The document's sections in order; choosing one shows the chunks from its first one on, so a
 * section deep in a long document is one press away rather than many pages of loading.
 */
export function DocumentOutline({ sections, onJump }: { sections: DocumentSection[]; onJump: (ord: number) => void }) {
  return (
    <nav aria-labelledby="outline-heading" className="rounded-xl border border-slate-200 p-3 dark:border-slate-800">
      <details open={sections.length <= 30}>
        <summary id="outline-heading" className="cursor-pointer font-medium">
          Sections ({sections.length})
        </summary>
        <ol className="mt-2 max-h-80 space-y-0.5 overflow-y-auto text-sm">
          {sections.map((s) => (
            <li key={s.firstOrd}>
              <button
                type="button"
                data-testid="outline-section"
                onClick={() => onJump(s.firstOrd)}
                className="flex w-full flex-wrap items-baseline gap-x-2 rounded px-2 py-1 text-left hover:bg-slate-100 focus-visible:bg-slate-100 dark:hover:bg-slate-800 dark:focus-visible:bg-slate-800"
              >
                <span className="text-brand-700 dark:text-brand-100">{s.section ?? "Before the first heading"}</span>
                <span className="text-xs text-slate-500 dark:text-slate-400">
                  {s.chunkCount === 1 ? `chunk ${s.firstOrd}` : `chunks ${s.firstOrd}–${s.lastOrd}`}
                  {s.firstPage !== null && ` · ${pageRange(s.firstPage, s.lastPage).toLowerCase()}`}
                </span>
              </button>
            </li>
          ))}
        </ol>
      </details>
    </nav>
  );
}
