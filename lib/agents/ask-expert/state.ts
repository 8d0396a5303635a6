import { Annotation } from "@langchain/langgraph";
import { z } from "zod";
import type { ChatAgentProfile, ChatSessionContext, ReviewState, SourceItem } from "@/lib/chat";
import type { ChatTurn, FinishReason, QueryAnalysis, Usage } from "@/lib/engine";

/** One turn of a consultation. The session and agent follow from the run's thread. */
export const AskExpertInput = z.object({
  message: z
    .string()
    .trim()
    .min(1)
    .refine((m) => Buffer.byteLength(m, "utf8") <= 8192, "The message is longer than 8192 bytes."),
  userMessageId: z.uuid().optional(),
  /** The session was opened by this message: there is no earlier conversation to load. */
  firstTurn: z.boolean().optional(),
});
export type AskExpertInput = z.infer<typeof AskExpertInput>;

/** The conversation kept in the thread's checkpoints is capped; the engine sees less (load_history). */
const MEMORY_CAP = 200;

export interface GeneratedAnswer {
  text: string;
  citations: number[];
  danglingCitations: number[];
  confidence: number;
  engine: string;
  model: string;
  usage: Usage | null;
  costUsd: number | null;
  finishReason: FinishReason;
}

/**
 * What every workflow that answers a chat turn keeps: the turn's input, the session and agent it
 * belongs to, and the conversation so far (user and assistant turns, the newest `memoryCap`),
 * carried by the thread's checkpoints.
 */
export function chatTurnChannels(memoryCap: number) {
  return {
    message: Annotation<string>(),
    userMessageId: Annotation<string | undefined>(),
    firstTurn: Annotation<boolean | undefined>(),
    history: Annotation<ChatTurn[]>({
      reducer: (left, right) => [...left, ...right].slice(-memoryCap),
      default: () => [],
    }),
    session: Annotation<ChatSessionContext | null>(),
    agent: Annotation<ChatAgentProfile | null>(),
  };
}

export const AskExpertState = Annotation.Root({
  ...chatTurnChannels(MEMORY_CAP),
  /** The turns handed to the engine: the history truncated to MAX_CONVERSATION_MESSAGES. */
  conversation: Annotation<ChatTurn[]>(),
  analysis: Annotation<QueryAnalysis | null>(),
  sources: Annotation<SourceItem[]>(),
  retrieval: Annotation<"lexical" | "hybrid">(),
  /** What fallback search did for this turn, when it ran. */
  fallback: Annotation<{ searchers: string[]; failures: { searcher: string; error: string }[]; hits: number } | null>(),
  answer: Annotation<GeneratedAnswer | null>(),
  review: Annotation<(ReviewState & { reason: string }) | null>(),
  messageId: Annotation<string | null>(),
  /** When this turn began (ms): the review reports the turn's duration. */
  startedAt: Annotation<number | undefined>(),
});
export type AskExpertStateType = typeof AskExpertState.State;
