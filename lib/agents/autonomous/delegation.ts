import { keywordsOf } from "@/lib/engine";
import { AUTONOMOUS_LIMITS, type Severity } from "../contract";
import { riskAtLeast } from "./tools";

/** What checkpoint 3 says about a delegation, read from the task and the expert it goes to. */
export interface DelegationAssessment {
  task_complexity: "low" | "medium" | "high";
  coordination_mode: "sequential" | "parallel" | "conditional";
  tools_authorized: string[];
  risk: Severity;
  /** How many L4 workers the specialist would run (one per knowledge domain, within the limits). */
  workers: number;
  /** Why, in words: the reviewer sees what the values rest on. */
  reasons: string[];
}

// A specialist here runs one tool: knowledge_search, by one worker per knowledge domain.
const SPECIALIST_TOOLS = ["knowledge_search"];

/**
 * Complexity from the task itself: how many distinct content words it has and how many asks it
 * joins (clauses split by ";", " and ", ", then"), and how many domains the expert must search.
 * Risk: the highest risk of the tools it is authorised (as the tenant's registry rates them),
 * raised to medium for a complex task. Coordination: its workers run in parallel when there are
 * several; a single worker is sequential; a task that depends on an earlier finding ("if",
 * "depending on", "unless") is conditional.
 */
export function assessDelegation(
  task: string,
  expert: { knowledgeDomains: string[] },
  tools: { name: string; risk: Severity }[],
  workerBudget: number = AUTONOMOUS_LIMITS.parallel_agent_limit,
): DelegationAssessment {
  const words = new Set(keywordsOf(task).map((w) => w.toLowerCase())).size;
  const asks = task.split(/;|\band\b|,\s*then\b|\?\s/i).filter((part) => part.trim().length > 0).length;
  const domains = Math.max(1, expert.knowledgeDomains.length);
  const workers = Math.max(1, Math.min(domains, workerBudget));
  const points = (words > 20 ? 2 : words > 8 ? 1 : 0) + (asks >= 3 ? 2 : asks === 2 ? 1 : 0) + (domains >= 3 ? 1 : 0);
  const task_complexity = points >= 3 ? "high" : points >= 1 ? "medium" : "low";
  const available = new Map(tools.map((t) => [t.name, t.risk]));
  const tools_authorized = SPECIALIST_TOOLS.filter((t) => available.has(t));
  const toolRisk = tools_authorized.reduce<Severity>(
    (worst, t) => (riskAtLeast(available.get(t) ?? "low", worst) ? (available.get(t) ?? "low") : worst),
    "low",
  );
  const risk: Severity = task_complexity === "high" && !riskAtLeast(toolRisk, "medium") ? "medium" : toolRisk;
  const coordination_mode = /\b(if|unless|depending on|in case)\b/i.test(task)
    ? "conditional"
    : workers > 1
      ? "parallel"
      : "sequential";
  return {
    task_complexity,
    coordination_mode,
    tools_authorized,
    risk,
    workers,
    reasons: [
      `${words} distinct content words, ${asks} ${asks === 1 ? "ask" : "asks"}, ${domains} knowledge ${domains === 1 ? "domain" : "domains"} → ${task_complexity} complexity`,
      tools_authorized.length
        ? `tools: ${tools_authorized.map((t) => `${t} (${available.get(t)} risk)`).join(", ")} → ${risk} risk`
        : `no search tool is available to the run → ${risk} risk`,
      `${workers} ${workers === 1 ? "worker" : "workers"} → ${coordination_mode}`,
    ],
  };
}
