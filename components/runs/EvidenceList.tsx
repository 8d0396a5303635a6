import { humanize } from "@/components/hitl/format";
import type { EvidenceClaim } from "./api";
import { Chip } from "./Badges";
import { percent } from "./format";

/** Each claim of the answer with the passages that back it. */
export function EvidenceList({ evidence }: { evidence: EvidenceClaim[] }) {
  if (evidence.length === 0) return <p className="text-sm text-slate-500">No evidence has been gathered yet.</p>;
  return (
    <ol className="space-y-3">
      {evidence.map((claim, i) => (
        <li
          // biome-ignore lint/suspicious/noArrayIndexKey: claims are listed in the answer's order
          key={i}
          data-testid="evidence-claim"
          className="rounded-md border border-slate-200 bg-white p-3 text-sm dark:border-slate-700 dark:bg-slate-900"
        >
          <div className="flex flex-wrap items-center gap-1.5">
            <Chip>{humanize(claim.claimType)}</Chip>
            <Chip tone={claim.confidence >= 0.7 ? "green" : claim.confidence >= 0.4 ? "amber" : "red"}>
              {percent(claim.confidence)} confidence
            </Chip>
          </div>
          <p className="mt-1 font-medium [overflow-wrap:anywhere]">
            {claim.claim.replace(/^#+\s*/, "") || (
              <span className="text-slate-500 italic">A passage cited without a sentence of its own</span>
            )}
          </p>
          <ul className="mt-2 space-y-2">
            {claim.sources.map((source) => (
              <li key={`${source.n}:${source.chunkId}`} className="border-l-2 border-brand-500 pl-2">
                <p className="text-xs font-medium [overflow-wrap:anywhere]">
                  [{source.n}] {source.title}
                </p>
                <blockquote className="mt-0.5 text-xs text-slate-700 italic [overflow-wrap:anywhere] dark:text-slate-300">
                  “{source.quote}”
                </blockquote>
                <p className="mt-0.5 flex flex-wrap gap-x-3 text-xs text-slate-500 dark:text-slate-400">
                  <span>Relevance {percent(source.relevance)}</span>
                  <span>Evidence level {source.evidenceLevel ?? "unrated"}</span>
                  {source.secondary.length > 0 && (
                    <span>Also in: {source.secondary.map((s) => s.title).join(", ")}</span>
                  )}
                </p>
              </li>
            ))}
          </ul>
        </li>
      ))}
    </ol>
  );
}
