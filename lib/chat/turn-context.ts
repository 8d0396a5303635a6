import { type TenantScope, type Tx, withTenant } from "@/lib/db";
import { DomainError } from "@/lib/errors";
import { announceCaseChange } from "@/lib/hitl";
import type { ChatMessageMetadata, ReviewState, SourceItem } from "./contract";
import { sessionOfThread } from "./limits";
import {
  type AgentRow,
  agentByIdIn,
  assistantMessageOfRunIn,
  insertMessageIn,
  recentTurnsIn,
  sessionIn,
  updateAssistantReviewIn,
  updateSessionIn,
} from "./store";

// What the ask-expert workflow reads and writes about its session. The workflow knows only its
// tenant (from its checkpointer) and its thread; the session and the run follow from the thread.

export interface ChatAgentProfile {
  id: string;
  slug: string;
  name: string;
  domain: string;
  systemPrompt: string;
  model: string | null;
  temperature: number;
  tools: string[];
  knowledgeDomains: string[];
  safetyLevel: AgentRow["defaultSafetyLevel"];
}

export interface ChatSessionContext {
  sessionId: string;
  userId: string;
  runId: string;
  title: string;
  agentId: string;
  /** The data source the consultation asks, when it picked one or was answered from one. */
  dataSourceId?: string | null;
}

/**
 * The session and the current run of a chat thread. Refuses a thread that is not a chat's, a
 * session that is gone, and a run started by anyone but the session's owner.
 */
export async function loadChatSession(
  scope: TenantScope,
  run: { threadId: string; runId: string; startedBy: string },
): Promise<ChatSessionContext> {
  const sessionId = sessionOfThread(run.threadId);
  if (!sessionId)
    throw new DomainError("invalid", "NOT_A_CHAT_THREAD", "This workflow runs on a chat session's thread.");
  return withTenant(scope, async (tx) => {
    const session = await sessionIn(tx, sessionId);
    if (!session) throw new DomainError("not_found", "CHAT_SESSION_GONE", "The chat session no longer exists.");
    // A consultation is private to its member: only they can continue it, whoever starts a run.
    if (run.startedBy !== session.userId) {
      throw new DomainError("forbidden", "CHAT_SESSION_FORBIDDEN", "Only the session's owner can continue it.");
    }
    return {
      sessionId,
      userId: session.userId,
      runId: run.runId,
      title: session.title,
      agentId: session.agentId,
      dataSourceId: session.dataSourceId,
    };
  });
}

/**
 * Keeps the source a consultation was answered from, so that a source added (or a default set)
 * later does not move it; the member moves it with the picker.
 */
export async function rememberSessionSource(scope: TenantScope, sessionId: string, dataSourceId: string) {
  await withTenant(scope, (tx) => updateSessionIn(tx, sessionId, { dataSourceId }));
}

/** The agent's profile as the workflow needs it (prompt, model, tools, knowledge domains). */
export async function loadChatAgent(scope: TenantScope, agentId: string): Promise<ChatAgentProfile> {
  const agent = await withTenant(scope, (tx) => agentByIdIn(tx, agentId));
  if (!agent) throw new DomainError("not_found", "CHAT_AGENT_GONE", "The session's agent no longer exists.");
  return {
    id: agent.id,
    slug: agent.slug,
    name: agent.name,
    domain: agent.domain,
    systemPrompt: agent.systemPrompt,
    model: agent.model,
    temperature: agent.temperature,
    tools: agent.tools ?? [],
    knowledgeDomains: agent.knowledgeDomains ?? [],
    safetyLevel: agent.defaultSafetyLevel,
  };
}

/** The session's last turns from its saved messages, oldest first, without the given message. */
export async function savedConversation(
  scope: TenantScope,
  sessionId: string,
  limit: number,
  exceptMessageId?: string,
): Promise<{ role: "user" | "assistant"; content: string }[]> {
  return withTenant(scope, (tx) => recentTurnsIn(tx, sessionId, limit, exceptMessageId));
}

/** Saves a run's answer once: a re-run of the saving step finds the message it already wrote. */
export async function saveAssistantMessage(
  scope: TenantScope,
  input: {
    sessionId: string;
    runId: string;
    content: string;
    sources: SourceItem[];
    citations: number[];
    metadata: ChatMessageMetadata & Record<string, unknown>;
  },
): Promise<{ messageId: string; created: boolean }> {
  return withTenant(scope, async (tx) => {
    const existing = await assistantMessageOfRunIn(tx, input.sessionId, input.runId);
    if (existing) return { messageId: existing, created: false };
    if (!(await sessionIn(tx, input.sessionId))) {
      throw new DomainError("not_found", "CHAT_SESSION_GONE", "The chat session no longer exists.");
    }
    const messageId = await insertMessageIn(tx, scope, {
      sessionId: input.sessionId,
      role: "assistant",
      content: input.content,
      sources: input.sources,
      citations: input.citations,
      metadata: { ...input.metadata, runId: input.runId },
      at: new Date(),
    });
    return { messageId, created: true };
  });
}

/**
 * Keeps the part of an answer its asker saw before they stopped it, marked `stopped`, in the
 * transaction that cancels the run. A run that had already saved its whole answer keeps that
 * one; a thread that is not a chat's has nothing to keep.
 */
export async function saveStoppedAnswerIn(
  tx: Tx,
  scope: TenantScope,
  run: { id: string; threadId: string },
  partial: { content: string; sources: SourceItem[]; citations: number[] },
): Promise<void> {
  const sessionId = sessionOfThread(run.threadId);
  if (!sessionId || !(await sessionIn(tx, sessionId))) return;
  if (await assistantMessageOfRunIn(tx, sessionId, run.id)) return;
  const at = new Date();
  await insertMessageIn(tx, scope, {
    sessionId,
    role: "assistant",
    content: partial.content,
    sources: partial.sources,
    citations: partial.citations,
    metadata: { runId: run.id, stopped: true },
    at,
  });
  await updateSessionIn(tx, sessionId, { updatedAt: at });
}

/**
 * Records where the review of a run's answer stands on the saved message: pending when the case
 * opens, then the reviewer's outcome; an edited answer replaces the text the asker reads.
 */
export async function recordAnswerReview(
  scope: TenantScope,
  input: { sessionId: string; runId: string; review: ReviewState; content?: string },
): Promise<boolean> {
  const applied = await withTenant(scope, (tx) =>
    updateAssistantReviewIn(tx, { sessionId: input.sessionId, runId: input.runId }, input.review, input.content),
  );
  // The asker's open chat hears of it at once (see answerReviewStream).
  if (applied) announceCaseChange(input.review.caseId);
  return applied;
}

/** Marks the session as just used (and titles it when it has no title yet). */
export async function touchSession(scope: TenantScope, sessionId: string, fallbackTitle: string): Promise<void> {
  await withTenant(scope, async (tx) => {
    const session = await sessionIn(tx, sessionId);
    if (!session) return;
    await updateSessionIn(tx, sessionId, {
      updatedAt: new Date(),
      ...(session.title.trim() ? {} : { title: fallbackTitle }),
    });
  });
}
