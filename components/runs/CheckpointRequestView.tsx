"use client";

import type { ReactNode } from "react";
import { humanize } from "@/components/hitl/format";
import { PayloadView } from "@/components/hitl/PayloadView";
import type { CheckpointRequest } from "@/lib/checkpoints/contract";
import { AnswerWithSources } from "./AnswerWithSources";
import type { AutonomousPublicState, CheckpointPart } from "./api";
import { Chip, RiskBadge } from "./Badges";
import { formatElapsed, formatUsd, percent } from "./format";

// Each checkpoint's request as a reviewer reads it; every field stays one click away below.

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className="text-sm [overflow-wrap:anywhere]">{children}</dd>
    </div>
  );
}

function Fields({ children }: { children: ReactNode }) {
  return <dl className="grid grid-cols-1 gap-x-4 gap-y-2 sm:grid-cols-2">{children}</dl>;
}

const list = (items: string[] | undefined) => (items && items.length > 0 ? items.join(", ") : "none");

function PlanView({ request, chosen }: { request: CheckpointRequest<"plan_approval">; chosen: string | null }) {
  const candidates = [...(request.candidate_plans ?? [])].sort((a, b) => b.score - a.score);
  return (
    <div className="space-y-4">
      <section>
        <h4 className="mb-1 text-sm font-semibold">Proposed steps</h4>
        <ol className="list-decimal space-y-1 pl-5 text-sm" data-testid="plan-steps">
          {request.plan_steps.map((step) => (
            <li key={step.id} className="[overflow-wrap:anywhere]">
              {step.description}{" "}
              <span className="inline-flex flex-wrap gap-1 align-middle">
                {step.tool && step.tool !== "ask_expert" && <Chip>{step.tool}</Chip>}
                {step.agent && <Chip>asks {step.agent}</Chip>}
                {step.risk_level && step.risk_level !== "low" && <RiskBadge risk={step.risk_level} />}
              </span>
            </li>
          ))}
        </ol>
      </section>
      <Fields>
        <Field label="Estimated duration">{formatElapsed(request.estimated_duration_seconds * 1000)}</Field>
        <Field label="Estimated cost">{formatUsd(request.estimated_cost_usd)}</Field>
        <Field label="Tools">{list(request.tools_to_use)}</Field>
        <Field label="Experts to ask">{list(request.sub_agents_to_spawn)}</Field>
        <Field label="High-risk steps">{list(request.high_risk_steps)}</Field>
        <Field label="External APIs">{list(request.external_api_calls)}</Field>
        <Field label="Data accessed">{list(request.data_access_required)}</Field>
      </Fields>
      {candidates.length > 0 && (
        <section>
          <h4 className="mb-1 text-sm font-semibold">Candidate plans (Tree of Thoughts)</h4>
          {request.selection_reason && (
            <p className="mb-2 text-xs text-slate-600 dark:text-slate-400" data-testid="selection-reason">
              {request.selection_reason}
            </p>
          )}
          {/* Side by side from a tablet's width up, so the candidates compare at a glance. */}
          <ul className="grid grid-cols-1 gap-2 md:grid-cols-2 xl:grid-cols-3" data-testid="candidate-plans">
            {candidates.map((candidate) => (
              <li
                key={candidate.id}
                data-testid="candidate-plan"
                className={`min-w-0 space-y-1 rounded-md border p-2 ${
                  candidate.id === chosen
                    ? "border-emerald-400 dark:border-emerald-700"
                    : "border-slate-200 dark:border-slate-700"
                }`}
              >
                <div className="flex flex-wrap items-center gap-2">
                  <span className="text-sm font-medium [overflow-wrap:anywhere]">{candidate.strategy}</span>
                  <Chip tone={candidate.id === chosen ? "green" : "grey"} title="Overall score">
                    score {candidate.score.toFixed(2)}
                  </Chip>
                  {candidate.id === chosen && <Chip tone="green">chosen</Chip>}
                </div>
                <p className="flex flex-wrap gap-x-3 text-xs text-slate-600 dark:text-slate-400">
                  {Object.entries(candidate.scores).map(([name, value]) => (
                    <span key={name}>
                      {humanize(name)} {percent(value)}
                    </span>
                  ))}
                </p>
                {candidate.rationale && (
                  <p className="text-xs [overflow-wrap:anywhere]" data-testid="candidate-rationale">
                    {candidate.rationale}
                  </p>
                )}
                <details className="text-xs">
                  <summary className="cursor-pointer text-slate-500">{candidate.steps.length} steps</summary>
                  <ol className="mt-1 list-decimal space-y-0.5 pl-4">
                    {candidate.steps.map((step) => (
                      <li key={step.id} className="[overflow-wrap:anywhere]">
                        {step.description}
                      </li>
                    ))}
                  </ol>
                </details>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

function ToolView({ request }: { request: CheckpointRequest<"tool_execution"> }) {
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-mono text-sm font-semibold">{request.tool_name}</span>
        <Chip title="Category">{humanize(request.tool_category)}</Chip>
        <RiskBadge risk={request.risk_level} />
      </div>
      {request.reasoning && <Field label="Why">{request.reasoning}</Field>}
      <Fields>
        <Field label="Data access">{humanize(request.data_access_scope)}</Field>
        <Field label="External API">{request.external_api ? "Yes" : "No"}</Field>
        <Field label="Sandbox">{request.requires_sandbox ? "Required" : "Not needed"}</Field>
        <Field label="Expected output">{request.expected_output}</Field>
      </Fields>
      <div>
        <h4 className="text-xs font-medium text-slate-500 dark:text-slate-400">Parameters</h4>
        <pre className="mt-1 overflow-x-auto rounded-md bg-slate-100 p-2 text-xs dark:bg-slate-800">
          {JSON.stringify(request.tool_parameters, null, 2)}
        </pre>
      </div>
    </div>
  );
}

function SubAgentView({ request }: { request: CheckpointRequest<"subagent_spawn"> }) {
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-sm font-semibold">{request.agent_name}</span>
        <Chip title="Level">{humanize(request.agent_level)}</Chip>
        <Chip title="Complexity">{request.task_complexity} complexity</Chip>
      </div>
      <Field label="Task">{request.task_description}</Field>
      <Fields>
        <Field label="Capabilities">{list(request.agent_capabilities)}</Field>
        <Field label="Tools authorised">{list(request.tools_authorized)}</Field>
        <Field label="Coordination">{humanize(request.coordination_mode)}</Field>
        <Field label="Data access">{humanize(request.data_access_scope)}</Field>
        <Field label="Time limit">{formatElapsed(request.max_execution_time_seconds * 1000)}</Field>
      </Fields>
    </div>
  );
}

function DecisionView({ request }: { request: CheckpointRequest<"critical_decision"> }) {
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-2">
        <Chip>{humanize(request.decision_type)}</Chip>
        <RiskBadge risk={request.impact_level} />
      </div>
      <Field label="Decision">{request.decision_description}</Field>
      <ul className="space-y-1.5" data-testid="decision-options">
        {request.decision_options.map((option) => {
          const recommended = option.id === request.recommended_option;
          return (
            <li
              key={option.id}
              className={`rounded-md border p-2 text-sm ${
                recommended ? "border-emerald-400 dark:border-emerald-700" : "border-slate-200 dark:border-slate-700"
              }`}
            >
              <div className="flex flex-wrap items-center gap-2">
                <span className="font-medium [overflow-wrap:anywhere]">{option.label}</span>
                {recommended && (
                  <Chip tone="green" title="The agent's recommendation and how confident it is">
                    recommended · {percent(request.recommendation_confidence)} confidence
                  </Chip>
                )}
              </div>
              {option.description && <p className="text-xs text-slate-600 dark:text-slate-400">{option.description}</p>}
            </li>
          );
        })}
      </ul>
      <Field label="Rationale">{request.decision_rationale}</Field>
      <Fields>
        <Field label="Stakeholders">{list(request.affected_stakeholders)}</Field>
        <Field label="Evidence quality">{request.evidence_quality}</Field>
        {request.regulatory_implications && (
          <Field label="Regulatory implications">{request.regulatory_implications}</Field>
        )}
        <Field label="Evidence">{list(request.evidence_sources)}</Field>
      </Fields>
    </div>
  );
}

function FinalView({
  request,
  sources,
}: {
  request: CheckpointRequest<"final_review">;
  sources: AutonomousPublicState["sources"];
}) {
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap gap-1.5">
        <Chip title="How sure the agent is">{percent(request.response_confidence)} confidence</Chip>
        <Chip>evidence level {request.evidence_level}</Chip>
        <Chip tone={request.quality_checks_failed > 0 ? "amber" : "green"}>
          {request.quality_checks_passed} checks passed, {request.quality_checks_failed} failed
        </Chip>
        {!request.constitutional_compliance && <Chip tone="red">not compliant</Chip>}
      </div>
      <div className="rounded-md border border-slate-200 p-3 dark:border-slate-700">
        <AnswerWithSources text={request.response_text} sources={sources} idPrefix="review" />
      </div>
      <Fields>
        <Field label="Experts involved">{list(request.agents_involved)}</Field>
        <Field label="Tools used">{list(request.tools_used)}</Field>
        <Field label="Duration">{formatElapsed(request.total_duration_seconds * 1000)}</Field>
        <Field label="Cost">{formatUsd(request.total_cost_usd)}</Field>
      </Fields>
    </div>
  );
}

/** The request of a pending checkpoint, laid out for its type. */
export function CheckpointRequestView({
  checkpoint,
  state,
}: {
  checkpoint: Pick<CheckpointPart, "type" | "request">;
  /** The run's state (the chosen candidate, the sources an answer cites); null when not at hand. */
  state: Pick<AutonomousPublicState, "chosenCandidate" | "sources"> | null;
}) {
  const request = checkpoint.request;
  let view: ReactNode;
  switch (checkpoint.type) {
    case "plan_approval":
      view = (
        <PlanView request={request as CheckpointRequest<"plan_approval">} chosen={state?.chosenCandidate ?? null} />
      );
      break;
    case "tool_execution":
      view = <ToolView request={request as CheckpointRequest<"tool_execution">} />;
      break;
    case "subagent_spawn":
      view = <SubAgentView request={request as CheckpointRequest<"subagent_spawn">} />;
      break;
    case "critical_decision":
      view = <DecisionView request={request as CheckpointRequest<"critical_decision">} />;
      break;
    case "final_review":
      view = <FinalView request={request as CheckpointRequest<"final_review">} sources={state?.sources ?? []} />;
      break;
    default:
      return <PayloadView payload={request} />;
  }
  return (
    <div className="space-y-3">
      {view}
      <details className="text-xs">
        <summary className="cursor-pointer text-slate-500 hover:text-slate-700 dark:hover:text-slate-300">
          Every field of the request
        </summary>
        <div className="mt-2">
          <PayloadView payload={request} />
        </div>
      </details>
    </div>
  );
}
