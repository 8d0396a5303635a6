import { config } from "@/lib/config";

type Env = Record<string, string | undefined>;

function positiveInt(value: string | undefined, fallback: number, max: number): number {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? Math.min(n, max) : fallback;
}

/** How many earlier messages the engine sees (`MAX_CONVERSATION_MESSAGES`, default 20). */
export function maxConversationMessages(env: Env = process.env): number {
  return positiveInt(env.MAX_CONVERSATION_MESSAGES, 20, 200);
}

/** How many knowledge-base passages an answer draws on (`VIGIL_CHAT_SOURCES`, default 5). */
export function sourcesPerAnswer(env: Env = process.env): number {
  return config(env).chatSources;
}

/** Answers below this confidence go to review (`VIGIL_REVIEW_CONFIDENCE`, default 0.35). */
export function reviewThreshold(env: Env = process.env): number {
  return config(env).reviewConfidence;
}

/** Agents with the `high` safety level review below this (at least the general threshold). */
export const HIGH_SAFETY_THRESHOLD = 0.6;
