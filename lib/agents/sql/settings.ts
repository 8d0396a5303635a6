import { config } from "@/lib/config";

// The Data Analyst's deployment settings, under the SQL agent design's own names (as
// MAX_CONVERSATION_MESSAGES is): read from the environment when used, so a test or an operator
// changing one sees it take effect without a restart of anything but the process.

type Env = Record<string, string | undefined>;

function flag(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value.trim() === "") return fallback;
  return !/^(?:false|0|off|no)$/i.test(value.trim());
}

function positive(value: string | undefined, fallback: number, max: number): number {
  const n = Number(value);
  return value !== undefined && Number.isFinite(n) && n > 0 ? Math.min(n, max) : fallback;
}

/**
 * The workflow's own steps outside the SQL loop (classify, pick the source, generate, finalize,
 * save) and LangGraph's step limit (25) bound how many loop steps a turn can take at most.
 */
const MAX_LOOP_STEPS = 18;

export interface AnalystSettings {
  /** `DOMAIN_EXTRACTION_ENABLED` (default on): business terms resolved through the domain registry. */
  domainExtraction: boolean;
  /** `SQL_PRE_VALIDATION_ENABLED` (default on): tables and columns checked before the statement runs. */
  preValidation: boolean;
  /**
   * `SQL_AGENT_MAX_ITERATIONS` (default 15, at most 18): the steps of the check → correct →
   * execute → regenerate loop one question may take before the analyst stops and says so.
   */
  maxIterations: number;
  /** `CONVERSATION_MAX_AGE_HOURS` (default 24): conversation memory idle longer is deleted. */
  conversationMaxAgeMs: number;
  /** `CONVERSATION_CLEANUP_INTERVAL_HOURS` (default 1): how often the cleanup runs. */
  conversationCleanupEveryMs: number;
  /**
   * `VIGIL_SQL_SOURCE_DEADLINE_MS` (default 15000): how long a question may wait for a network
   * source to open and describe itself before the analyst answers that it is unreachable.
   */
  sourceDeadlineMs: number;
}

const HOUR_MS = 3_600_000;

export function analystSettings(env: Env = process.env): AnalystSettings {
  return {
    domainExtraction: flag(env.DOMAIN_EXTRACTION_ENABLED, true),
    preValidation: flag(env.SQL_PRE_VALIDATION_ENABLED, true),
    maxIterations: Math.max(1, Math.floor(positive(env.SQL_AGENT_MAX_ITERATIONS, 15, MAX_LOOP_STEPS))),
    conversationMaxAgeMs: positive(env.CONVERSATION_MAX_AGE_HOURS, 24, 24 * 365) * HOUR_MS,
    conversationCleanupEveryMs: positive(env.CONVERSATION_CLEANUP_INTERVAL_HOURS, 1, 24 * 7) * HOUR_MS,
    sourceDeadlineMs: config(env).sqlSourceDeadlineMs,
  };
}
