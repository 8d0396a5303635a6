import { facetsOf, keywordsOf, stem, subjectKeywordsOf } from "@/lib/engine";
import type { PlanCandidate, Severity, StepKind, TodoItem } from "../contract";

/** An expert the plan may delegate to: another agent of the tenant's catalog. */
export interface CatalogExpert {
  id: string;
  slug: string;
  name: string;
  domain: string;
  description: string;
  knowledgeDomains: string[];
}

export interface PlanningInput {
  goal: string;
  agent: CatalogExpert;
  /** The other experts of the catalog (not the run's own). */
  experts: CatalogExpert[];
  /** Tools the run's agent may use, with their risk. */
  tools: { name: string; risk: Severity }[];
}

interface DraftStep {
  description: string;
  kind: StepKind;
  tool?: string;
  agent?: string;
  params?: Record<string, unknown>;
}

export interface PlannedStep extends DraftStep {
  id: string;
}

// The explicit Tree-of-Thoughts score: each candidate plan is judged on how many of the goal's
// perspectives it consults, whether it can run with the agent's tools, how short it is and how
// little risk it takes. The weights are the product's choice, shown with every candidate.
export const PLAN_SCORE_WEIGHTS = { coverage: 0.45, tool_fit: 0.25, brevity: 0.15, safety: 0.15 } as const;
const RISK_VALUE: Record<Severity, number> = { low: 0, medium: 0.34, high: 0.67, critical: 1 };

const stems = (text: string) => new Set(keywordsOf(text).map((k) => stem(k.toLowerCase())));
const overlap = (a: Set<string>, b: Set<string>) => [...a].filter((x) => b.has(x)).length;

/** The experts whose field the goal touches, best match first (at most `limit`). */
export function relevantExperts(goal: string, experts: CatalogExpert[], limit = 2): CatalogExpert[] {
  const terms = stems(goal);
  return experts
    .map((expert) => ({
      expert,
      hits: overlap(
        terms,
        stems(`${expert.name} ${expert.domain} ${expert.description} ${expert.knowledgeDomains.join(" ")}`),
      ),
    }))
    .filter((x) => x.hits > 0)
    .sort((a, b) => b.hits - a.hits || a.expert.name.localeCompare(b.expert.name))
    .slice(0, limit)
    .map((x) => x.expert);
}

/** An arithmetic expression written in the text ("45000 / 0.9", "15% of 2400"), normalised for the calculator. */
export function expressionIn(text: string): string | null {
  const normalised = text
    .replace(/(\d),(?=\d{3}\b)/g, "$1")
    .replace(/(\d+(?:\.\d+)?)\s*%\s+of\s+(\d+(?:\.\d+)?)/gi, "($1 / 100 * $2)")
    .replace(/[×x](?=\s*\d)/g, "*");
  const match = /[(\d][\d.\s()]*(?:[-+*/^][\s(]*\d[\d.\s()]*)+/.exec(normalised);
  if (!match) return null;
  const expression = match[0].replace(/[.\s]+$/, "").trim();
  const opens = (expression.match(/\(/g) ?? []).length;
  const closes = (expression.match(/\)/g) ?? []).length;
  return opens === closes && /\d\s*[-+*/^]\s*[(\d]/.test(expression) ? expression : null;
}

/** The choice a goal asks for, as options: "should we A or B?", "whether to A", "which of A, B or C". */
export function decisionOptionsIn(goal: string): { id: string; label: string }[] | null {
  const sentence = goal.split(/(?<=[?.!])\s+/).find((s) => /\b(should|whether|which|choose|decide)\b/i.test(s));
  if (!sentence) return null;
  const clean = (s: string) => s.replace(/[?.!]+$/, "").trim();
  const pair = /\b(?:should (?:we|i|they)|whether (?:to|we should))\s+(.+?)\s+or\s+(.+?)(?:[?.!]|$)/i.exec(sentence);
  // "A or B for our device": what follows the second option is context both share, not part of B.
  const shared = /\s+(?:for|in|on|at|with|before|after)\s+(?:our|the|a|an|this|their|its)\b.*$/i;
  const labels = pair
    ? [clean(pair[1]).replace(shared, ""), clean(pair[2]).replace(shared, "")]
    : (() => {
        const which = /\bwhich (?:of\s+)?(.+?)(?:[?.!]|$)/i.exec(sentence);
        if (which && /,| or /.test(which[1]))
          return which[1]
            .split(/,\s*|\s+or\s+/)
            .map(clean)
            .filter(Boolean);
        const single = /\b(?:should (?:we|i|they)|whether to)\s+(.+?)(?:[?.!]|$)/i.exec(sentence);
        return single ? [clean(single[1]), `Do not ${clean(single[1])}`] : [];
      })();
  const options = labels.filter((l) => l.length > 0).slice(0, 6);
  if (options.length < 2) return null;
  return options.map((label, i) => ({ id: `option-${i + 1}`, label: label.slice(0, 300) }));
}

function searchStep(goal: string, about?: string): DraftStep {
  const query =
    keywordsOf(about ?? goal)
      .slice(0, 12)
      .join(" ") || goal.slice(0, 200);
  return {
    description: `Search the knowledge base for ${about ? `"${about.slice(0, 120)}"` : "the goal's subject"}`,
    kind: "tool",
    tool: "knowledge_search",
    params: { query },
  };
}

/** At most `max` characters, cut at a word with an ellipsis. */
const clipWords = (text: string, max: number) =>
  text.length <= max
    ? text
    : `${text
        .slice(0, max)
        .replace(/\s+\S*$/, "")
        .replace(/[\s,;:]+$/, "")}…`;

function delegateStep(expert: CatalogExpert, goal: string): DraftStep {
  return {
    description: `Ask ${expert.name} (${expert.domain}) what bears on: ${clipWords(goal, 160)}`,
    kind: "delegate",
    tool: "ask_expert",
    agent: expert.slug,
    params: { task: goal.slice(0, 1000) },
  };
}

const calcStep = (expression: string): DraftStep => ({
  description: `Calculate ${expression}`,
  kind: "tool",
  tool: "calculator",
  params: { expression },
});

const decideStep = (): DraftStep => ({
  description: "Weigh the options against the evidence and decide",
  kind: "decide",
});
const synthesizeStep = (): DraftStep => ({ description: "Write the cited answer", kind: "synthesize" });

export interface DraftPlan {
  id: string;
  strategy: string;
  steps: DraftStep[];
}

/**
 * The goal's parts, each a sub-question a search can answer: its clauses (facetsOf), or, for a
 * goal of one part with several subject words, that part halved (the head words, the rest), so
 * a decomposed plan still asks two narrower questions rather than repeating the broad one.
 */
export function subQuestionsOf(goal: string): string[] {
  const facets = facetsOf(goal);
  if (facets.length > 1) return facets.map((f) => f.join(" "));
  const words = facets[0] ?? subjectKeywordsOf(goal);
  if (words.length < 4) return words.length ? [words.join(" ")] : [];
  const half = Math.ceil(words.length / 2);
  return [words.slice(0, half).join(" "), words.slice(half).join(" ")];
}

const signatureOf = (steps: DraftStep[]) =>
  steps.map((s) => `${s.kind}:${s.tool ?? ""}:${s.agent ?? ""}:${JSON.stringify(s.params ?? {})}`).join("|");

/**
 * Tree-of-Thoughts: candidate plans that differ in how they decompose the goal (one broad
 * search, a search per part of the goal), which tools they use and which experts of the
 * catalog they consult; each scored on explicit criteria, the best first. Plans with the same
 * steps are one plan: at most three distinct candidates.
 */
export function candidatePlans(input: PlanningInput): { candidate: PlanCandidate; steps: PlannedStep[] }[] {
  return scorePlans(input, offlineDrafts(input));
}

/** What the goal asks for, as the plans are built and scored from it. */
function goalParts(input: PlanningInput) {
  const { goal } = input;
  const can = (tool: string) => input.tools.some((t) => t.name === tool);
  const experts = can("ask_expert") ? relevantExperts(goal, input.experts) : [];
  const expression = can("calculator") ? expressionIn(goal) : null;
  const decision = decisionOptionsIn(goal) !== null;
  const parts = subQuestionsOf(goal);
  return { can, experts, expression, decision, parts };
}

/** The offline engine's candidate pool: four ways to decompose the goal, from its own words. */
function offlineDrafts(input: PlanningInput): DraftPlan[] {
  const { goal } = input;
  const { can, experts, expression, decision, parts } = goalParts(input);
  const tail = [...(decision ? [decideStep()] : []), synthesizeStep()];
  const calc = expression ? [calcStep(expression)] : [];
  const subject = subjectKeywordsOf(goal).slice(0, 12).join(" ");
  const partSearches = (parts.length ? parts : [subject]).map((q) => searchStep(q, q));
  const literature = can("literature_search")
    ? [
        {
          description: "Search the literature for recent evidence",
          kind: "tool" as const,
          tool: "literature_search",
          params: { query: subject || keywordsOf(goal).slice(0, 8).join(" ") },
        },
      ]
    : [];
  const broad = searchStep(subject || goal, subject || undefined);
  const pool: DraftPlan[] = [
    {
      id: "thorough",
      strategy: "A search per part of the goal, the literature and every expert the goal touches, then decide",
      steps: [...partSearches, ...literature, ...experts.map((e) => delegateStep(e, goal)), ...calc, ...tail],
    },
    {
      id: "focused",
      strategy: "One broad search of the agent's own knowledge, without delegating",
      steps: [broad, ...calc, ...tail],
    },
    {
      id: "delegated",
      strategy: "Hand the goal to the closest expert and check it against one broad search",
      steps: [...(experts[0] ? [delegateStep(experts[0], goal)] : []), broad, ...tail],
    },
    {
      id: "decomposed",
      strategy: "A search per part of the goal, from the agent's own knowledge only",
      steps: [...partSearches, ...calc, ...tail],
    },
  ];
  return pool;
}

/**
 * Tree-of-Thoughts scoring, the same whoever proposed the candidates: plans with the same steps
 * are one plan; each is scored on explicit criteria; the best three, best first.
 */
export function scorePlans(
  input: PlanningInput,
  pool: readonly DraftPlan[],
): { candidate: PlanCandidate; steps: PlannedStep[] }[] {
  const { experts, expression, decision, parts } = goalParts(input);
  const literature = input.tools.some((t) => t.name === "literature_search") ? [1] : [];
  const seen = new Set<string>();
  const drafts = pool.filter((d) => {
    const key = signatureOf(d.steps);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const perspectives =
    Math.max(parts.length, 1) + experts.length + literature.length + (expression ? 1 : 0) + (decision ? 1 : 0);
  const scored = drafts.map((draft) => {
    const steps = numbered(draft.steps, draft.id);
    const searches = steps.filter((s) => s.tool === "knowledge_search").length;
    const delegated = new Set(steps.filter((s) => s.kind === "delegate").map((s) => s.agent)).size;
    const consulted =
      Math.min(searches, Math.max(parts.length, 1)) +
      delegated +
      (steps.some((s) => s.tool === "literature_search") ? 1 : 0) +
      (steps.some((s) => s.tool === "calculator") ? 1 : 0) +
      (steps.some((s) => s.kind === "decide") ? 1 : 0);
    const toolSteps = steps.filter((s) => s.tool);
    const usable = toolSteps.filter((s) => input.tools.some((t) => t.name === s.tool)).length;
    const risks = toolSteps.map((s) => RISK_VALUE[input.tools.find((t) => t.name === s.tool)?.risk ?? "medium"]);
    const scores = {
      coverage: Math.min(consulted / perspectives, 1),
      tool_fit: toolSteps.length === 0 ? 1 : usable / toolSteps.length,
      brevity: Math.max(0, 1 - Math.max(0, steps.length - 2) / 10),
      safety: risks.length === 0 ? 1 : 1 - risks.reduce((a, b) => a + b, 0) / risks.length,
    };
    const score = (Object.keys(PLAN_SCORE_WEIGHTS) as (keyof typeof PLAN_SCORE_WEIGHTS)[]).reduce(
      (sum, key) => sum + PLAN_SCORE_WEIGHTS[key] * scores[key],
      0,
    );
    const rationale = `Consults ${consulted} of the goal's ${perspectives} parts and perspectives in ${steps.length} steps (${searches} searches, ${delegated} experts); ${usable} of ${toolSteps.length} tool steps usable; mean tool risk ${risks.length ? round(risks.reduce((a, b) => a + b, 0) / risks.length) : 0}.`;
    const candidate: PlanCandidate = {
      id: draft.id,
      strategy: draft.strategy,
      steps: steps.map(({ id, description, tool, agent }) => ({
        id,
        description,
        ...(tool ? { tool } : {}),
        ...(agent ? { agent } : {}),
      })),
      score: round(score),
      scores: Object.fromEntries(Object.entries(scores).map(([k, v]) => [k, round(v)])),
      rationale,
    };
    return { candidate, steps };
  });
  // Equal scores keep the pool's order (thorough, focused, delegated, decomposed).
  return scored.sort((a, b) => b.candidate.score - a.candidate.score).slice(0, 3);
}

/** Why the first candidate was chosen over the others, criterion by criterion. */
export function choiceReasonOf(candidates: PlanCandidate[]): string {
  const [best, ...rest] = candidates;
  if (!best) return "No candidate plan.";
  const weights = Object.entries(PLAN_SCORE_WEIGHTS)
    .map(([k, w]) => `${k} ×${w}`)
    .join(", ");
  const against = rest.map((c) => {
    const better = Object.keys(PLAN_SCORE_WEIGHTS).filter((k) => (best.scores[k] ?? 0) > (c.scores[k] ?? 0));
    const worse = Object.keys(PLAN_SCORE_WEIGHTS).filter((k) => (best.scores[k] ?? 0) < (c.scores[k] ?? 0));
    return `over "${c.id}" (${c.score}): better on ${better.join(", ") || "nothing"}${worse.length ? `, worse on ${worse.join(", ")}` : ""}`;
  });
  return `Chose "${best.id}" with the highest weighted score ${best.score} (${weights}); ${against.join("; ") || "the only candidate"}.`;
}

function numbered(steps: DraftStep[], prefix: string): PlannedStep[] {
  return steps.map((step, i) => ({ ...step, id: `${prefix}-${i + 1}` }));
}

const round = (x: number) => Math.round(x * 1000) / 1000;

/**
 * A plan step as a reviewer may write it (checkpoint 1's edit): its kind follows from its tool,
 * and a tool step without parameters searches or calculates what its description says.
 */
export function stepFromPlanStep(
  step: { id: string; description: string; tool?: string; agent?: string; risk_level?: Severity },
  goal: string,
): PlannedStep {
  const tool = step.tool ?? (step.agent ? "ask_expert" : undefined);
  const kind: StepKind =
    tool === "ask_expert"
      ? "delegate"
      : tool
        ? "tool"
        : /\b(decide|weigh|choose)\b/i.test(step.description)
          ? "decide"
          : "synthesize";
  const params =
    tool === "calculator"
      ? { expression: expressionIn(step.description) ?? "" }
      : tool === "ask_expert"
        ? { task: `${step.description}. Goal: ${goal}`.slice(0, 1000) }
        : tool
          ? { query: keywordsOf(step.description).slice(0, 12).join(" ") || step.description.slice(0, 200) }
          : undefined;
  return {
    id: step.id,
    description: step.description,
    kind,
    ...(tool ? { tool } : {}),
    ...(step.agent ? { agent: step.agent } : {}),
    ...(params ? { params } : {}),
  };
}

/**
 * Re-plans what is left with a steering message: a named expert becomes a delegation, a
 * calculation a calculator step, anything else a search for what it asks. The new steps go
 * before the decision and the answer, which stay last.
 */
export function stepsForSteering(message: string, seq: number, experts: CatalogExpert[]): PlannedStep[] {
  const lower = message.toLowerCase();
  const named = experts.filter(
    (e) => lower.includes(e.name.toLowerCase()) || lower.includes(e.slug) || lower.includes(e.domain.toLowerCase()),
  );
  const steps: DraftStep[] = named.map((e) => ({
    description: `Ask ${e.name} (${e.domain}), as steered: ${clipWords(message, 160)}`,
    kind: "delegate",
    tool: "ask_expert",
    agent: e.slug,
    params: { task: message.slice(0, 1000) },
  }));
  const expression = expressionIn(message);
  if (expression) steps.push(calcStep(expression));
  if (steps.length === 0) steps.push(searchStep(message, message));
  return numbered(steps, `steer-${seq}`);
}

/** A plan step as the to-do list shows it. */
export function todoOf(
  step: PlannedStep,
  origin: TodoItem["origin"] = "plan",
): TodoItem & { params?: Record<string, unknown> } {
  return { ...step, status: "pending", origin, react: [] };
}

/** A candidate plan as a model proposes it (model-planning.ts), before it is checked. */
export interface ProposedPlan {
  strategy: string;
  steps: {
    kind: "search" | "tool" | "delegate" | "decide" | "synthesize";
    description: string;
    tool?: string;
    expert?: string;
    query?: string;
  }[];
}

/**
 * A model's candidate plans made into plans this run can carry out: a search needs a query, a
 * tool must be one the agent may use (the calculator only with the goal's own expression), an
 * expert must be in the catalog; what fails is dropped, never guessed. Each plan ends in the
 * decision (when the goal asks one) and the answer.
 */
export function draftsFromProposals(input: PlanningInput, proposals: readonly ProposedPlan[]): DraftPlan[] {
  const { can, expression, decision } = goalParts(input);
  const expertNamed = (name: string) => {
    const key = name.trim().toLowerCase();
    return input.experts.find((e) => [e.id, e.slug, e.name].some((n) => n.toLowerCase() === key)) ?? null;
  };
  return proposals.map((proposal, i) => {
    const steps: DraftStep[] = [];
    for (const step of proposal.steps) {
      if (step.kind === "search" && can("knowledge_search")) {
        const query = (step.query ?? step.description).trim();
        if (query) steps.push(searchStep(query, query));
      } else if (step.kind === "delegate" && can("ask_expert") && step.expert) {
        const expert = expertNamed(step.expert);
        if (expert) steps.push(delegateStep(expert, input.goal));
      } else if (step.kind === "tool" && step.tool && can(step.tool)) {
        if (step.tool === "calculator") {
          if (expression) steps.push(calcStep(expression));
        } else if (step.tool === "knowledge_search") {
          const query = (step.query ?? step.description).trim();
          if (query) steps.push(searchStep(query, query));
        } else if (step.tool !== "ask_expert") {
          steps.push({
            description: step.description.slice(0, 300),
            kind: "tool",
            tool: step.tool,
            params: { query: (step.query ?? step.description).slice(0, 300) },
          });
        }
      }
    }
    return {
      id: `proposed-${i + 1}`,
      strategy: proposal.strategy.slice(0, 300),
      steps: [...steps, ...(decision ? [decideStep()] : []), synthesizeStep()],
    };
  });
}
