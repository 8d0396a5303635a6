import type { AutonomousPublicState } from "@/lib/agents/contract";

/**
 * Goals over the demo corpus, one set for every demo expert, each with the documents (by their
 * corpus slug) a good deliverable must draw on. Written from the documents' contents, not from
 * what the engine returns: a deliverable that quotes another document is counted as imprecise.
 */
export interface GoalCase {
  agent: string;
  /** Who starts the run: the goal's tenant's member. */
  tenant: "demo" | "acme";
  goal: string;
  expected: string[];
}

export const GOAL_SET: GoalCase[] = [
  // FDA Regulatory Specialist
  {
    agent: "fda-regulatory",
    tenant: "demo",
    goal: "Prepare a short regulatory strategy for a class II diagnostic device, citing the knowledge base.",
    expected: ["fda-510k", "fda-de-novo", "fda-pma"],
  },
  {
    agent: "fda-regulatory",
    tenant: "demo",
    goal: "Should we file a 510(k) or request De Novo classification for a novel low-risk device without a predicate?",
    expected: ["fda-510k", "fda-de-novo"],
  },
  {
    agent: "fda-regulatory",
    tenant: "demo",
    goal: "Summarise what a premarket approval application for a class III device must contain and how long review takes.",
    expected: ["fda-pma"],
  },
  {
    agent: "fda-regulatory",
    tenant: "demo",
    goal: "Outline the route from an investigational new drug application to a new drug application.",
    expected: ["fda-ind", "fda-nda"],
  },
  {
    agent: "fda-regulatory",
    tenant: "demo",
    goal: "Compare fast track, breakthrough therapy and priority review for a serious condition, and when accelerated approval fits.",
    expected: ["fda-expedited-programs", "fda-accelerated-approval"],
  },
  {
    agent: "fda-regulatory",
    tenant: "demo",
    goal: "Brief the team on orphan drug designation incentives for a rare disease programme.",
    expected: ["fda-orphan-designation"],
  },
  {
    agent: "fda-regulatory",
    tenant: "demo",
    goal: "Explain the biologics license application and the EMA centralised procedure for a biologic.",
    expected: ["fda-bla", "ema-centralised-procedure"],
  },
  // Clinical Trial Designer
  {
    agent: "clinical-trial-designer",
    tenant: "demo",
    goal: "Draft a design note on randomisation and blinding for a phase III trial.",
    expected: ["randomisation", "blinding", "trial-phases"],
  },
  {
    agent: "clinical-trial-designer",
    tenant: "demo",
    goal: "Summarise how to choose primary endpoints and surrogate endpoints, citing the knowledge base.",
    expected: ["endpoints"],
  },
  {
    agent: "clinical-trial-designer",
    tenant: "demo",
    goal: "Explain the sample size calculation: power, significance level and effect size.",
    expected: ["sample-size"],
  },
  {
    agent: "clinical-trial-designer",
    tenant: "demo",
    goal: "Outline adaptive trial designs with interim analyses and their type I error control.",
    expected: ["adaptive-designs"],
  },
  {
    agent: "clinical-trial-designer",
    tenant: "demo",
    goal: "Prepare a brief on non-inferiority margins and equivalence trials.",
    expected: ["non-inferiority-trials"],
  },
  {
    agent: "clinical-trial-designer",
    tenant: "demo",
    goal: "Describe the phases of clinical development from phase I to phase IV.",
    expected: ["trial-phases"],
  },
  // Health Economist
  {
    agent: "health-economist",
    tenant: "demo",
    goal: "Explain quality-adjusted life years and the incremental cost-effectiveness ratio.",
    expected: ["qaly", "icer"],
  },
  {
    agent: "health-economist",
    tenant: "demo",
    goal: "Summarise cost-effectiveness thresholds used by payers such as NICE.",
    expected: ["cost-effectiveness-thresholds"],
  },
  {
    agent: "health-economist",
    tenant: "demo",
    goal: "Prepare a short note on budget impact analysis for a new therapy.",
    expected: ["budget-impact-analysis"],
  },
  {
    agent: "health-economist",
    tenant: "demo",
    goal: "Outline decision-analytic models: decision trees and Markov models.",
    expected: ["decision-models"],
  },
  {
    agent: "health-economist",
    tenant: "demo",
    goal: "Compare an ICER against willingness-to-pay thresholds per QALY.",
    expected: ["icer", "cost-effectiveness-thresholds", "qaly"],
  },
  // Pharmacovigilance
  {
    agent: "pharmacovigilance",
    tenant: "demo",
    goal: "Summarise individual case safety report requirements and their reporting timelines.",
    expected: ["icsr"],
  },
  {
    agent: "pharmacovigilance",
    tenant: "demo",
    goal: "Explain SUSAR expedited reporting in clinical trials.",
    expected: ["susar"],
  },
  {
    agent: "pharmacovigilance",
    tenant: "demo",
    goal: "Prepare an overview of periodic safety reports, the PSUR and the PBRER.",
    expected: ["psur-pbrer"],
  },
  {
    agent: "pharmacovigilance",
    tenant: "demo",
    goal: "Describe signal detection methods and MedDRA coding of adverse events.",
    expected: ["signal-detection", "meddra"],
  },
  {
    agent: "pharmacovigilance",
    tenant: "demo",
    goal: "Outline risk management plans and REMS for a product with a serious risk.",
    expected: ["risk-management"],
  },
  // Research Analyst (several domains)
  {
    agent: "research-analyst",
    tenant: "demo",
    goal: "Research the De Novo classification request and the premarket approval pathway.",
    expected: ["fda-de-novo", "fda-pma"],
  },
  {
    agent: "research-analyst",
    tenant: "demo",
    goal: "Summarise QALY measurement and budget impact analysis.",
    expected: ["qaly", "budget-impact-analysis"],
  },
  {
    agent: "research-analyst",
    tenant: "demo",
    goal: "Review signal detection and periodic safety reports.",
    expected: ["signal-detection", "psur-pbrer"],
  },
  // Data Analyst (its own domain has no documents; the product guide answers questions about Vigil)
  {
    agent: "data-analyst",
    tenant: "demo",
    goal: "Explain how Vigil API keys are created, scoped and revoked.",
    expected: ["guide-api-keys"],
  },
  {
    agent: "data-analyst",
    tenant: "demo",
    goal: "Describe how Vigil's review inbox assigns and decides review cases.",
    expected: ["guide-review-inbox"],
  },
  // Acme: Device Quality
  {
    agent: "device-quality",
    tenant: "acme",
    goal: "Summarise the Acme CAPA procedure: investigation, root cause and effectiveness checks.",
    expected: ["acme-capa-procedure"],
  },
  {
    agent: "device-quality",
    tenant: "acme",
    goal: "Outline Acme design controls: design inputs, verification and validation.",
    expected: ["acme-design-controls"],
  },
  // Acme: Cybersecurity Advisor
  {
    agent: "cybersecurity-advisor",
    tenant: "acme",
    goal: "Prepare a premarket cybersecurity checklist summary: threat model and SBOM.",
    expected: ["acme-premarket-cybersecurity"],
  },
  {
    agent: "cybersecurity-advisor",
    tenant: "acme",
    goal: "Explain the Acme premarket cybersecurity requirements for vulnerability management and patches.",
    expected: ["acme-premarket-cybersecurity"],
  },
];

/** A deliverable's quality against a goal's expected documents. */
export function deliverableQuality(
  state: Pick<AutonomousPublicState, "answer" | "sources">,
  slugOf: Map<string, string>,
  expected: string[],
) {
  const text = state.answer?.text ?? "";
  const known = new Map(state.sources.map((s) => [s.n, s]));
  // A cited claim: a sentence or list item followed by markers that name the run's sources.
  const claims = [...text.matchAll(/[^\n[\]]{20,}?((?:\s?\[\d+\])+)/g)].filter((m) =>
    [...m[1].matchAll(/\[(\d+)\]/g)].some((x) => known.has(Number(x[1]))),
  ).length;
  const citedDocs = new Set(
    [...text.matchAll(/\[(\d+)\]/g)]
      .map((m) => known.get(Number(m[1]))?.documentId)
      .filter((id): id is string => Boolean(id))
      .map((id) => slugOf.get(id) ?? id),
  );
  const hits = [...citedDocs].filter((d) => expected.includes(d)).length;
  return {
    claims,
    cited: [...citedDocs],
    precision: citedDocs.size === 0 ? 0 : hits / citedDocs.size,
    recall: expected.filter((d) => citedDocs.has(d)).length / expected.length,
  };
}
