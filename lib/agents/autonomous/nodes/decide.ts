import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { awaitDecision } from "@/lib/checkpoints";
import { keywordsOf, stem } from "@/lib/engine";
import { SEVERITIES, type Severity } from "../../contract";
import { evidenceQualityOf } from "../evidence";
import { runModelOf } from "../model-call";
import { type Weighing, weighedByModel } from "../model-planning";
import { decisionOptionsIn } from "../planner";
import { reviewAgainstPrinciples } from "../principle-review";
import { emitTodo, endingOf, historyEntry, reasonOf, withStep } from "../progress";
import type { AutonomousStateType, AutonomousUpdate } from "../state";

const termsOf = (text: string) => new Set(keywordsOf(text).map((k) => stem(k.toLowerCase())));
/** Every content word of the text, stemmed, as often as it occurs. */
const keywordsOfAll = (text: string) =>
  (text.toLowerCase().match(/[\p{L}\p{N}()]+/gu) ?? []).flatMap((w) => [...termsOf(w)]);

const DECISION_TYPES: [RegExp, string][] = [
  [/regulat|approval|fda|ema|filing/i, "regulatory_strategy"],
  [/clinical|trial|protocol|endpoint/i, "clinical_protocol"],
  [/safety|pharmacovigilance|adverse/i, "safety_alert"],
];

// A decision's own risk by its type: safety and clinical decisions reach patients directly.
const TYPE_RISK: Record<string, Severity> = {
  safety_alert: "high",
  clinical_protocol: "high",
  regulatory_strategy: "medium",
  strategy: "low",
};

/**
 * The design's impact_level from the decision's risk (its type) and scope (who it affects): a
 * decision that reaches three or more stakeholder groups is one level higher.
 */
export function impactOf(decisionType: string, stakeholders: string[]): { level: Severity; why: string } {
  const base = TYPE_RISK[decisionType] ?? "medium";
  const wide = stakeholders.length >= 3;
  const level = SEVERITIES[Math.min(SEVERITIES.length - 1, SEVERITIES.indexOf(base) + (wide ? 1 : 0))];
  return {
    level,
    why: `${decisionType} decisions are ${base} risk; ${stakeholders.length} stakeholder ${stakeholders.length === 1 ? "group" : "groups"}${wide ? " widen it" : ""} → ${level} impact`,
  };
}

/** Who a run's decision affects: the domains of every expert who worked on it, and the requester. */
function stakeholdersOf(state: AutonomousStateType): string[] {
  const domainOf = new Map(state.experts.map((e) => [e.id, e.domain]));
  const delegated = state.hierarchy
    .filter((n) => n.agentLevel === "l3_specialist")
    .map((n) => domainOf.get(n.agentId))
    .filter((d): d is string => Boolean(d));
  return [...new Set([state.agent?.domain, ...delegated].filter((d): d is string => Boolean(d))), "the requester"];
}

/**
 * Options weighed against the evidence: each option's support is how many of its words the
 * sources and observations contain; the best supported is recommended, with a confidence from
 * its margin over the next.
 */
export function weighOptions(options: { id: string; label: string }[], evidence: string) {
  const counts = new Map<string, number>();
  for (const k of keywordsOfAll(evidence)) counts.set(k, (counts.get(k) ?? 0) + 1);
  const support = options.map((o) => {
    const terms = [...termsOf(o.label)];
    return terms.length === 0 ? 0 : terms.filter((t) => counts.has(t)).length / terms.length;
  });
  // Equal support: the option the evidence mentions more often (its words' occurrences) wins.
  const mentions = options.map((o) => [...termsOf(o.label)].reduce((n, t) => n + (counts.get(t) ?? 0), 0));
  const ranked = support
    .map((s, i) => ({ s, i }))
    .sort((a, b) => b.s - a.s || mentions[b.i] - mentions[a.i] || a.i - b.i);
  const best = ranked[0];
  const second = ranked[1]?.s ?? 0;
  const confidence = best.s === 0 ? 0.5 : Math.min(0.95, 0.5 + (0.45 * (best.s - second)) / best.s);
  return { recommended: options[best.i].id, confidence: Math.round(confidence * 100) / 100, support };
}

/** The model's weighing in the offline weighing's shape: its support per option, confidence from the margin. */
export function modelWeighing(options: { id: string }[], byModel: Weighing) {
  const support = options.map((o) => byModel.options.find((w) => w.id === o.id)?.support ?? 0);
  const best = support[options.findIndex((o) => o.id === byModel.recommended)] ?? 0;
  const second = Math.max(0, ...support.filter((_, i) => options[i].id !== byModel.recommended));
  const confidence = best === 0 ? 0.5 : Math.min(0.95, 0.5 + (0.45 * Math.max(0, best - second)) / best);
  return { recommended: byModel.recommended, confidence: Math.round(confidence * 100) / 100, support };
}

/**
 * Checkpoint 4, at every safety level, when a step yields a decision with options. Approving
 * takes the recommendation; an edit chooses another option (or words its own); a rejection ends
 * the run with the reason.
 */
export async function decide(state: AutonomousStateType, config: LangGraphRunnableConfig): Promise<AutonomousUpdate> {
  const current = state.current;
  if (!current) throw new Error("think chose no decision");
  const options = decisionOptionsIn(state.goal) ?? [
    { id: "option-1", label: "Proceed as the goal proposes" },
    { id: "option-2", label: "Do not proceed" },
  ];
  const evidence = [
    ...state.sources.map((s) => `${s.title} ${s.text}`),
    ...state.todo.flatMap((s) => s.react.map((r) => r.observation ?? "")),
  ].join(" ");
  // With a model, it weighs the options against the passages; offline, the evidence's words do.
  const model = state.agent ? runModelOf(state.agent) : null;
  const byModel = model
    ? await weighedByModel(config, model, {
        goal: state.goal,
        options,
        evidence: state.sources.slice(0, 30).map((s) => `[${s.n}] ${s.title}: ${s.text.slice(0, 600)}`),
      })
    : null;
  const weighed = byModel ? modelWeighing(options, byModel) : weighOptions(options, evidence);
  const domain = `${state.agent?.domain ?? ""} ${state.goal}`;
  const recommendedLabel = options.find((o) => o.id === weighed.recommended)?.label ?? "";
  const decisionType = DECISION_TYPES.find(([re]) => re.test(domain))?.[1] ?? "strategy";
  const stakeholders = stakeholdersOf(state);
  const impact = impactOf(decisionType, stakeholders);
  // The tenant's principles hold for what the decision says: its description, rationale and options.
  const [description, rationale, ...labels] = await reviewAgainstPrinciples(
    config,
    "decision",
    [
      state.goal.slice(0, 4000),
      `The evidence gathered supports "${recommendedLabel}" best (${options.map((o, i) => `${o.label}: ${Math.round(weighed.support[i] * 100)}% of its terms found`).join("; ")}). Impact: ${impact.why}.`.slice(
        0,
        4000,
      ),
      ...options.map((o) => o.label),
    ],
    state.agent,
  );
  const request = {
    decision_type: decisionType,
    decision_description: description,
    decision_rationale: rationale,
    impact_level: impact.level,
    affected_stakeholders: stakeholders,
    decision_options: options.map((o, i) => ({
      ...o,
      label: labels[i],
      description: byModel
        ? `Support ${Math.round(weighed.support[i] * 100)}%: ${byModel.options.find((w) => w.id === o.id)?.reason ?? ""}`.slice(
            0,
            1000,
          )
        : `Supported by ${Math.round(weighed.support[i] * 100)}% of its terms in the evidence`,
    })),
    recommended_option: weighed.recommended,
    recommendation_confidence: weighed.confidence,
    evidence_sources: state.sources.slice(0, 50).map((s) => `[${s.n}] ${s.title}`.slice(0, 1000)),
    evidence_quality: evidenceQualityOf(state.sources.map((s) => s.evidenceLevel ?? null)),
  };
  const decision = await awaitDecision(config, "critical_decision", request, {
    reasoning: current.thought,
    riskLevel: impact.level,
    timeoutSeconds: state.timeoutSeconds,
    safetyLevel: state.safetyLevel ?? "balanced",
    goal: state.goal,
  });
  const entry = historyEntry(4, "critical_decision", decision);
  if (decision.action === "reject") {
    const reason = reasonOf(decision) ?? "The decision was rejected.";
    const todo = state.todo.map((s) =>
      s.id === current.stepId
        ? { ...s, status: "failed" as const, note: `Rejected at checkpoint 4: ${reason}` }
        : s.status === "pending"
          ? { ...s, status: "skipped" as const, note: "The run ended at the decision" }
          : s,
    );
    emitTodo(config, todo);
    return { todo, current: null, checkpoints: [entry], outcome: { status: endingOf(decision), reason } };
  }
  const picked = decision.action === "edit" ? String(decision.edit.chosen_option ?? "") : weighed.recommended;
  const chosen = options.find((o) => o.id === picked || o.label.toLowerCase() === picked.toLowerCase());
  const chosenLabel = chosen?.label ?? picked;
  const by = decision.decided_by?.id ?? null;
  const todo = withStep(state.todo, current.stepId, {
    status: "done",
    react: {
      iteration: current.iteration,
      thought: current.thought,
      action: "critical_decision",
      observation: `Decision: ${chosenLabel}${decision.action === "edit" ? " (the reviewer's choice)" : " (the recommendation, approved)"}.`,
    },
  });
  emitTodo(config, todo);
  return {
    todo,
    current: null,
    checkpoints: [entry],
    decision: { options, recommended: weighed.recommended, chosen: chosen?.id ?? chosenLabel, chosenBy: by },
  };
}

export const afterDecide = (state: AutonomousStateType) => (state.outcome ? "finish" : "think");
