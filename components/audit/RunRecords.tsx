import { Chip } from "@/components/runs/Badges";
import { CHECKPOINT_LABELS, formatElapsed, formatWhen, percent } from "@/components/runs/format";
import type { AuditCheckpoint, AuditClaim, AuditValidation } from "./api";

// The run's human and quality records as the audit shows them: checkpoints and their
// decisions, constitutional validations, and the evidence behind each claim.

const DECISION_TONES = { approved: "green", rejected: "red" } as const;

export function CheckpointDecisions({ checkpoints }: { checkpoints: AuditCheckpoint[] }) {
  if (checkpoints.length === 0) return <p className="text-sm text-slate-500">The run stopped at no checkpoint.</p>;
  return (
    <ol className="space-y-3" aria-label="Checkpoints">
      {checkpoints.map((c) => (
        <li
          key={c.checkpointId}
          data-testid="audit-checkpoint"
          className="rounded-md border border-slate-200 bg-white p-3 text-sm dark:border-slate-700 dark:bg-slate-900"
        >
          <div className="flex flex-wrap items-center gap-1.5">
            <span className="font-medium">
              {CHECKPOINT_LABELS[c.checkpointType as keyof typeof CHECKPOINT_LABELS] ?? c.checkpointType}
            </span>
            <Chip>{c.nodeName}</Chip>
            <Chip tone={c.riskLevel === "high" || c.riskLevel === "critical" ? "red" : "grey"}>{c.riskLevel} risk</Chip>
            <Chip tone={DECISION_TONES[c.approvalStatus as keyof typeof DECISION_TONES] ?? "amber"}>
              {c.approvalStatus}
            </Chip>
          </div>
          <p className="mt-0.5 text-xs text-slate-500 dark:text-slate-400">
            Asked {formatWhen(c.createdAt)} · case <code className="break-all">{c.caseId}</code>
          </p>
          {c.requestReasoning && (
            <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">{c.requestReasoning}</p>
          )}
          {c.decisions.length === 0 ? (
            <p className="mt-2 text-xs text-slate-500">No decision recorded.</p>
          ) : (
            <ul className="mt-2 space-y-1.5 border-l-2 border-slate-200 pl-3 dark:border-slate-700">
              {c.decisions.map((d) => (
                <li key={d.eventId} data-testid="audit-decision">
                  <p>
                    <span className="font-medium">{d.outcome}</span> by {d.actor.name}{" "}
                    <span className="text-slate-500">
                      ({d.actor.role}
                      {d.actor.principalRole !== d.actor.role ? `, signed in as ${d.actor.principalRole}` : ""})
                    </span>
                    {d.type === "decision_superseded" && <Chip tone="amber">supersedes the earlier decision</Chip>}
                  </p>
                  <p className="text-xs text-slate-500 dark:text-slate-400">
                    {formatWhen(d.at)} · {formatElapsed(d.latencyMs)} after it was asked
                  </p>
                  {d.notes && <p className="text-xs [overflow-wrap:anywhere]">“{d.notes}”</p>}
                  {d.modifications && (
                    <pre className="mt-1 overflow-x-auto rounded bg-slate-50 p-2 text-xs dark:bg-slate-800">
                      {JSON.stringify(d.modifications, null, 2)}
                    </pre>
                  )}
                </li>
              ))}
            </ul>
          )}
        </li>
      ))}
    </ol>
  );
}

export function ValidationList({ validations }: { validations: AuditValidation[] }) {
  if (validations.length === 0) return <p className="text-sm text-slate-500">No constitutional check ran.</p>;
  return (
    <ol className="space-y-2" aria-label="Constitutional validations">
      {validations.map((v) => (
        <li
          key={v.validationId}
          className="rounded-md border border-slate-200 bg-white p-3 text-sm dark:border-slate-700 dark:bg-slate-900"
        >
          <div className="flex flex-wrap items-center gap-1.5">
            <Chip tone={v.isValid ? "green" : "red"}>{v.isValid ? "passed" : "violation"}</Chip>
            <Chip>{v.contentType}</Chip>
            {v.severity && <Chip tone="amber">{v.severity}</Chip>}
            {v.revisionApplied && <Chip tone="blue">revised</Chip>}
          </div>
          <p className="mt-0.5 text-xs text-slate-500 dark:text-slate-400">
            {formatWhen(v.validatedAt)} · checked {v.principlesChecked.join(", ") || "no principle"}
            {v.principlesFailed.length > 0 && ` · failed ${v.principlesFailed.join(", ")}`}
          </p>
          {v.violations.length > 0 && (
            <ul className="mt-1 list-disc pl-5 text-xs">
              {v.violations.map((text) => (
                <li key={text}>{text}</li>
              ))}
            </ul>
          )}
        </li>
      ))}
    </ol>
  );
}

export function EvidenceClaims({ claims }: { claims: AuditClaim[] }) {
  if (claims.length === 0) return <p className="text-sm text-slate-500">The run recorded no evidence.</p>;
  return (
    <ol className="space-y-2" aria-label="Evidence per claim">
      {claims.map((claim) => (
        <li
          key={claim.claimIndex}
          className="rounded-md border border-slate-200 bg-white p-3 text-sm dark:border-slate-700 dark:bg-slate-900"
        >
          <p className="[overflow-wrap:anywhere]">
            <Chip>{claim.claimType}</Chip> {claim.claimText}
          </p>
          <ul className="mt-1 space-y-1 text-xs text-slate-600 dark:text-slate-400">
            {claim.sources.map((s) => (
              <li key={s.sourceIndex}>
                [{s.citationNumber}] <span className="font-medium">{s.title}</span> · level{" "}
                {s.evidenceLevel ?? "unrated"} · confidence {percent(s.confidence)} · relevance {percent(s.relevance)} ·{" "}
                {s.searchMethod}
                {s.secondarySourceCount > 0 && ` · +${s.secondarySourceCount} more`}
                <blockquote className="mt-0.5 border-l-2 border-slate-200 pl-2 italic [overflow-wrap:anywhere] dark:border-slate-700">
                  {s.snippet}
                </blockquote>
              </li>
            ))}
          </ul>
        </li>
      ))}
    </ol>
  );
}
