"use client";

import { useQuery } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import { type ReactNode, type Ref, useState } from "react";
import { fetchAgents } from "@/components/runs/api";
import { CaseCheckpoint, isRunCheckpoint } from "@/components/runs/CaseCheckpoint";
import { editorFor } from "@/components/runs/editors/editor-for";
import { type Role, roleAtLeast } from "@/lib/access";
import type { HitlCaseView, HitlEventView } from "@/lib/hitl/contract";
import { AnswerContext } from "./AnswerContext";
import { type CaseDetailBody, HitlApiError, hitlFetch, type StandingDecision } from "./api";
import { ConfidenceBadge, DueBadge, EscalationBadge, PriorityBadge, StateBadge } from "./Badges";
import { CaseRefs } from "./CaseRefs";
import { ClarificationAnswer } from "./ClarificationAnswer";
import { DecisionActions, type DecisionActionsHandle, type Editor } from "./DecisionActions";
import { decisionLine, formatTime, humanize } from "./format";
import { HistoryTimeline } from "./HistoryTimeline";
import { PayloadView } from "./PayloadView";
import { SupersedeForm } from "./SupersedeForm";

export const REFRESH_MS = 5_000;

// The form library and its validator load only when a reviewer opens the form.
const ModifyForm = dynamic(() => import("./ModifyForm").then((m) => m.ModifyForm), {
  ssr: false,
  loading: () => <p className="text-sm text-slate-500">Loading the form…</p>,
});

/** Modify and approve from the case's schema, where the run page has no editor of its own. */
const schemaForm =
  (kase: HitlCaseView): Editor =>
  ({ busy, onApprove }) => <ModifyForm kase={kase} busy={busy} onApprove={onApprove} />;

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="space-y-2">
      <h3 className="text-sm font-semibold">{title}</h3>
      {children}
    </section>
  );
}

function DecisionBanner({ decision }: { decision: HitlEventView }) {
  const approved = decision.outcome === "approved";
  return (
    <div
      data-testid="case-decision"
      className={`rounded-lg border p-3 text-sm ${
        approved
          ? "border-emerald-300 bg-emerald-50 dark:border-emerald-800 dark:bg-emerald-950/40"
          : "border-red-300 bg-red-50 dark:border-red-800 dark:bg-red-950/40"
      }`}
    >
      <p className="font-medium">
        {decisionLine(decision.outcome ?? "approved", decision.actor.name, decision.createdAt)}
        {decision.modifications ? " (with changes)" : ""}
        {decision.type === "decision_superseded" ? ", replacing the first decision" : ""}
      </p>
      {decision.notes && <p className="mt-1 whitespace-pre-wrap">“{decision.notes}”</p>}
    </div>
  );
}

/** A case in full: summary, badges, payload, refs, history — and what this person may do with it. */
export function CaseDetail({
  caseId,
  role,
  actions,
}: {
  caseId: string;
  role: Role;
  actions?: Ref<DecisionActionsHandle>;
}) {
  const [standing, setStanding] = useState<StandingDecision | null>(null);
  const { data, error, isPending } = useQuery({
    queryKey: ["hitl", "case", caseId],
    queryFn: () => hitlFetch<CaseDetailBody>(`/api/hitl/cases/${encodeURIComponent(caseId)}`),
    refetchInterval: REFRESH_MS,
    retry: (failures, e) => !(e instanceof HitlApiError && e.status < 500) && failures < 2,
  });

  // The plan editor offers the tenant's experts, as on the run page.
  const planCase = data?.case.adapter === "plan_approval" && data.case.refs.some((r) => r.ref_type === "run");
  const experts = useQuery({
    queryKey: ["runs", "agents"],
    queryFn: fetchAgents,
    staleTime: 60_000,
    enabled: planCase && roleAtLeast(role, "reviewer"),
  });

  if (!data) {
    if (isPending) return <p className="text-sm text-slate-500">Loading the case…</p>;
    return (
      <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700 dark:bg-red-950 dark:text-red-300">
        {error instanceof HitlApiError && error.status === 404
          ? "This case does not exist, or it belongs to another tenant."
          : `Could not load the case: ${error?.message ?? "unknown error"}`}
      </p>
    );
  }

  const { case: kase, history } = data;
  const context = data.context ?? null;
  const state = kase.state;
  const open = state.state === "pending" || state.state === "needs_clarification";
  const decision = history.find((e) => e.id === state.decisionEventId);
  // Deciding follows the server's separation-of-duties answer: a reviewer who owns a strict run
  // sees why they may not approve its tools; a run's owner may decide what the policy lets them.
  const reviewer = roleAtLeast(role, "reviewer");
  const mayDecide = data.decider ? data.decider.allowed : reviewer;
  const refusal = mayDecide ? null : (data.decider?.reason ?? null);
  // A run's checkpoint reads as it does on the run page (a chat answer's review has its own context).
  const runId = kase.refs.find((ref) => ref.ref_type === "run")?.ref_value ?? null;
  const checkpoint = !context && isRunCheckpoint(kase.adapter, runId) ? kase.adapter : null;

  return (
    <article aria-labelledby="case-title" className="space-y-6" data-testid="case-detail">
      <header className="space-y-2">
        <div className="flex flex-wrap items-center gap-1.5">
          <StateBadge state={state.state} />
          <PriorityBadge priority={state.priority} />
          {kase.confidence && <ConfidenceBadge confidence={kase.confidence} />}
          {open && <DueBadge dueAt={state.dueAt} />}
          <EscalationBadge level={state.escalationLevel} target={state.escalatedTo} />
        </div>
        <h2 id="case-title" className="text-lg font-semibold leading-snug break-words">
          {kase.title}
        </h2>
        {kase.summary !== kase.title && (
          <p className="text-sm whitespace-pre-wrap break-words text-slate-700 dark:text-slate-300">{kase.summary}</p>
        )}
        <p className="text-xs break-words text-slate-500 dark:text-slate-400">
          {humanize(kase.adapter)} · {humanize(kase.caseType)} · schema v{kase.schemaVersion}
          {kase.payloadVersion !== kase.schemaVersion ? ` (read as v${kase.payloadVersion})` : ""} · submitted by{" "}
          {kase.submitter.name} ({kase.submitter.role}
          {kase.submitter.team ? `, ${kase.submitter.team}` : ""}) · {formatTime(kase.createdAt)} ·{" "}
          <span className="font-mono">{kase.id}</span>
        </p>
      </header>

      {error && (
        <p className="text-xs text-amber-700 dark:text-amber-400">Could not refresh this case: {error.message}</p>
      )}

      {standing && (
        <div
          role="status"
          data-testid="standing-decision"
          className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-800 dark:bg-amber-950/40"
        >
          <p className="font-medium">
            Someone decided first:{" "}
            {decisionLine(standing.decision_outcome, standing.actor_name, standing.created_at_ms)}.
          </p>
          <p className="mt-1 text-slate-600 dark:text-slate-400">
            Their decision stands; yours was not recorded.
            {standing.notes ? ` Their notes: “${standing.notes}”` : ""}
          </p>
        </div>
      )}

      {decision && <DecisionBanner decision={decision} />}

      {!open && role === "admin" && <SupersedeForm kase={kase} />}

      {state.state === "needs_clarification" && <ClarificationAnswer caseId={kase.id} question={state.openQuestion} />}

      {context && <AnswerContext context={context} />}

      {checkpoint && runId && (
        <Section title="What the run asks">
          <CaseCheckpoint caseId={kase.id} type={checkpoint} request={kase.payload} runId={runId} />
        </Section>
      )}

      {open && (mayDecide || reviewer) && (
        <DecisionActions
          caseId={kase.id}
          title={kase.title}
          heading="Decide"
          handle={actions}
          onStanding={setStanding}
          refusal={refusal}
          rejection="notes"
          ask={
            reviewer
              ? { who: runId ? "the run's owner" : "the submitter", waiting: state.state === "needs_clarification" }
              : null
          }
          editLabel="Modify and approve…"
          editor={
            (checkpoint
              ? editorFor(
                  { caseId: kase.id, type: checkpoint, request: kase.payload },
                  (experts.data ?? []).map((a) => ({ slug: a.slug, name: a.name })),
                )
              : null) ?? schemaForm(kase)
          }
        />
      )}

      {checkpoint ? null : context ? (
        // The answer above is the payload's text; the rest of the payload is one click away.
        <details>
          <summary className="cursor-pointer text-sm font-semibold">Payload (every field)</summary>
          <div className="mt-2">
            <PayloadView payload={kase.payload} />
          </div>
        </details>
      ) : (
        <Section title="Payload">
          <PayloadView payload={kase.payload} />
        </Section>
      )}

      {kase.refs.length > 0 && (
        <Section title="References">
          <CaseRefs refs={kase.refs} context={context} />
        </Section>
      )}

      <Section title="History">
        <HistoryTimeline events={history} />
      </Section>
    </article>
  );
}
