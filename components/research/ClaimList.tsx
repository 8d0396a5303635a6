import type { ReportClaim } from "./api";

/** Each claim of the report, verified or not (with what did not check out), and the sources it cites. */
export function ClaimList({ claims, onOpen }: { claims: ReportClaim[]; onOpen: (n: number, quote: string) => void }) {
  if (claims.length === 0) return <p className="text-sm text-slate-500">The report makes no checkable claim.</p>;
  const verified = claims.filter((c) => c.verified).length;
  return (
    <div className="space-y-2">
      <p className="text-xs text-slate-600 dark:text-slate-400" data-testid="claims-summary">
        {verified} of {claims.length} claims verified against their cited passages.
      </p>
      <ul className="space-y-2" aria-label="Claims">
        {claims.map((claim, i) => (
          <li
            // biome-ignore lint/suspicious/noArrayIndexKey: the report's claims do not change
            key={i}
            data-testid="report-claim"
            data-verified={claim.verified ? "true" : "false"}
            className="rounded-md border border-slate-200 bg-white p-2 text-sm dark:border-slate-700 dark:bg-slate-900"
          >
            <p className="flex flex-wrap items-start gap-2">
              <span
                className={`shrink-0 rounded-full px-2 py-0.5 text-xs font-medium ${
                  claim.verified
                    ? "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200"
                    : "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200"
                }`}
              >
                {claim.verified ? "✓ Verified" : "✗ Not verified"}
              </span>
              <span className="min-w-0 flex-1 [overflow-wrap:anywhere]">{claim.text}</span>
            </p>
            {claim.sources.length > 0 && (
              <p className="mt-1 flex flex-wrap gap-1 text-xs">
                {claim.sources.map((n) => (
                  <button
                    key={n}
                    type="button"
                    onClick={() => onOpen(n, claim.quote ?? claim.text)}
                    className="rounded-full bg-brand-100 px-2 py-0.5 font-semibold text-brand-700 hover:bg-brand-500 hover:text-white dark:bg-slate-700 dark:text-brand-100"
                    aria-label={`Open source ${n} of this claim`}
                  >
                    [{n}]
                  </button>
                ))}
              </p>
            )}
            {claim.quote && (
              <blockquote className="mt-1 border-l-2 border-slate-300 pl-2 text-xs italic [overflow-wrap:anywhere] dark:border-slate-600">
                {claim.quote}
              </blockquote>
            )}
            {!claim.verified && claim.problems.length > 0 && (
              <ul className="mt-1 list-disc pl-5 text-xs text-red-700 dark:text-red-300" data-testid="claim-problems">
                {claim.problems.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
