import type { RetrievalIteration } from "./api";
import { passagePlace } from "./format";

/** The passages clarification found, newest round first, each once, with document and page. */
export function FoundSoFar({ history }: { history: RetrievalIteration[] }) {
  const seen = new Set<string>();
  const passages = [...history]
    .sort((a, b) => b.iteration - a.iteration)
    .flatMap((round) => round.passages.map((p) => ({ ...p, iteration: round.iteration })))
    .filter((p) => {
      if (seen.has(p.chunk_id)) return false;
      seen.add(p.chunk_id);
      return true;
    });
  const last = history.length > 0 ? history.reduce((a, b) => (b.iteration > a.iteration ? b : a)) : null;
  if (passages.length === 0) {
    return (
      <p className="text-sm text-slate-500 dark:text-slate-400" data-testid="found-empty">
        Nothing found yet: the first search runs as soon as the question is read.
      </p>
    );
  }
  return (
    <div className="space-y-2">
      {last && (
        <p className="text-xs text-slate-600 dark:text-slate-400" data-testid="found-stats">
          Round {last.iteration}: {last.unique} new of {last.retrieved} passages retrieved (
          {Math.round(last.dedup_ratio * 100)}% new) from {last.queries.length} queries.
        </p>
      )}
      <ol className="max-h-[28rem] space-y-2 overflow-y-auto pr-1" aria-label="Passages found so far">
        {passages.map((p) => (
          <li
            key={p.chunk_id}
            data-testid="found-passage"
            className="rounded-md border border-slate-200 bg-white p-2 text-sm dark:border-slate-700 dark:bg-slate-900"
          >
            <p className="text-xs font-medium [overflow-wrap:anywhere]">{passagePlace(p)}</p>
            <p className="mt-1 line-clamp-3 text-xs text-slate-600 [overflow-wrap:anywhere] dark:text-slate-400">
              {p.excerpt}
            </p>
          </li>
        ))}
      </ol>
    </div>
  );
}
