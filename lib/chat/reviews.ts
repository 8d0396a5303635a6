import { and, desc, eq, sql } from "drizzle-orm";
import { roleAtLeast } from "@/lib/access";
import { schema, withTenant } from "@/lib/db";
import { type CaseStanding, caseStandings, onCaseChange } from "@/lib/hitl";
import {
  type AnswerReview,
  type AnswerReviewContext,
  type AnswerReviewStatus,
  type MyAnswerReview,
  type ReviewState,
  reviewSettled,
} from "./contract";
import { agentByIdIn, isUuid, messagesIn, ownSessionIn, sessionIn } from "./store";
import type { ChatActor } from "./types";

// The asker's side of an answer's review: where each review of a session stands, read from the
// case (a reviewer's question, a decision and its reason) and from the saved answer (the text a
// reviewer's edit put there once the review run applied it), and pushed as it changes.

const m = schema.chatMessages;

interface ReviewedMessage {
  runId: string;
  content: string;
  review: ReviewState;
}

function merge(message: ReviewedMessage, standing: CaseStanding | undefined): AnswerReview {
  const stored = message.review;
  const settled = reviewSettled(stored.status);
  let status: AnswerReviewStatus = settled ? (stored.status as AnswerReviewStatus) : "pending";
  if (!settled && standing?.state === "needs_clarification") status = "needs_clarification";
  // Decided, not yet applied to the answer: say what was decided; the edit follows.
  if (!settled && standing?.outcome) status = standing.outcome;
  return {
    runId: message.runId,
    caseId: stored.caseId,
    status,
    question: status === "needs_clarification" ? (standing?.question ?? null) : null,
    reason: standing?.reason ?? stored.reason ?? null,
    decidedAt: standing?.decidedAt ? new Date(standing.decidedAt).toISOString() : null,
    content: message.content,
    originalContent: stored.originalContent ?? null,
    settled,
  };
}

/** Every review of the caller's session, oldest answer first. */
export async function answerReviews(actor: ChatActor, sessionId: string): Promise<AnswerReview[]> {
  const messages = await withTenant(actor, async (tx) => {
    await ownSessionIn(tx, actor, sessionId);
    const rows = await tx
      .select({ content: m.content, metadata: m.metadata })
      .from(m)
      .where(and(eq(m.sessionId, sessionId), eq(m.role, "assistant"), sql`${m.metadata} ? 'review'`))
      .orderBy(m.createdAt);
    return rows.map(reviewedMessage);
  });
  return withStandings(actor, messages, (_message, review) => review);
}

const MY_REVIEWS_MAX = 200;

/** The caller's answers under review in every session of theirs, newest first. */
export async function myAnswerReviews(actor: ChatActor): Promise<MyAnswerReview[]> {
  const s = schema.chatSessions;
  const rows = await withTenant(actor, (tx) =>
    tx
      .select({
        content: m.content,
        metadata: m.metadata,
        createdAt: m.createdAt,
        sessionId: s.id,
        sessionTitle: s.title,
        agentName: schema.agents.name,
      })
      .from(m)
      .innerJoin(s, eq(s.id, m.sessionId))
      .innerJoin(schema.agents, eq(schema.agents.id, s.agentId))
      .where(and(eq(s.userId, actor.userId), eq(m.role, "assistant"), sql`${m.metadata} ? 'review'`))
      .orderBy(desc(m.createdAt))
      .limit(MY_REVIEWS_MAX),
  );
  const messages = rows.map((r) => ({ ...reviewedMessage(r), row: r }));
  return withStandings(actor, messages, (msg, review) => ({
    ...review,
    sessionId: msg.row.sessionId,
    sessionTitle: msg.row.sessionTitle,
    agentName: msg.row.agentName,
    answeredAt: msg.row.createdAt.toISOString(),
  }));
}

function reviewedMessage(row: { content: string; metadata: Record<string, unknown> }): ReviewedMessage {
  return { runId: String(row.metadata.runId ?? ""), content: row.content, review: row.metadata.review as ReviewState };
}

async function withStandings<M extends ReviewedMessage, T>(
  actor: ChatActor,
  messages: M[],
  view: (message: M, review: AnswerReview) => T,
): Promise<T[]> {
  const standings = await caseStandings(
    actor,
    messages.map((msg) => msg.review.caseId),
  );
  const byCase = new Map(standings.map((s) => [s.caseId, s]));
  return messages.map((msg) => view(msg, merge(msg, byCase.get(msg.review.caseId))));
}

/** How often a stream re-reads, for changes made by another process. */
const POLL_MS = 3000;
const HEARTBEAT_MS = 15_000;

/**
 * A server-sent event stream of the session's reviews: the current ones at once, then each time
 * one changes (a case change in this process wakes it; a poll catches other processes').
 */
export function answerReviewStream(
  actor: ChatActor,
  sessionId: string,
  first: AnswerReview[],
  signal: AbortSignal,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let last = "";
  let known = new Set(first.map((r) => r.caseId));
  let timers: NodeJS.Timeout[] = [];
  let unsubscribe = () => {};
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (reviews: AnswerReview[]) => {
        const data = JSON.stringify({ reviews });
        if (data === last) return;
        last = data;
        known = new Set(reviews.map((r) => r.caseId));
        controller.enqueue(encoder.encode(`data: ${data}\n\n`));
      };
      // One read at a time: changes that arrive during a read are seen by the next poll or change.
      let reading = false;
      const refresh = () => {
        if (reading) return;
        reading = true;
        answerReviews(actor, sessionId)
          .then(send)
          .catch(() => undefined)
          .finally(() => {
            reading = false;
          });
      };
      const close = () => {
        unsubscribe();
        for (const t of timers) clearInterval(t);
        try {
          controller.close();
        } catch {
          // already closed
        }
      };
      send(first);
      unsubscribe = onCaseChange((caseId) => {
        if (known.has(caseId)) refresh();
      });
      timers = [
        setInterval(refresh, POLL_MS),
        setInterval(() => controller.enqueue(encoder.encode(": keep-alive\n\n")), HEARTBEAT_MS),
      ];
      signal.addEventListener("abort", close, { once: true });
    },
    cancel() {
      unsubscribe();
      for (const t of timers) clearInterval(t);
    },
  });
}

/** The thread of the review of a chat run's answer (lib/agents' answer-review workflow). */
const REVIEW_THREAD = /^answer-review:([0-9a-f-]{36})$/i;

/**
 * The conversation behind a case that reviews a chat answer, for its reviewer: the question, who
 * asked and when, the agent, the answer and its sources. Null for any other case, and for a
 * member other than the asker: a reviewer sees this much of a private consultation because the
 * case puts it before them, a colleague does not.
 */
export async function answerReviewContext(
  actor: ChatActor,
  refs: readonly { ref_type: string; ref_value: string }[],
): Promise<AnswerReviewContext | null> {
  const sessionId = refs.find((r) => r.ref_type === "chat_session")?.ref_value;
  const chatRunId = refs
    .map((r) => (r.ref_type === "thread" ? REVIEW_THREAD.exec(r.ref_value)?.[1] : undefined))
    .find(Boolean);
  if (!sessionId || !chatRunId || !isUuid(sessionId)) return null;
  return withTenant(actor, async (tx) => {
    const session = await sessionIn(tx, sessionId);
    if (!session || (session.userId !== actor.userId && !roleAtLeast(actor.role, "reviewer"))) return null;
    const messages = await messagesIn(tx, sessionId);
    const at = messages.findIndex((msg) => msg.role === "assistant" && msg.metadata.runId === chatRunId);
    if (at < 0) return null;
    const answer = messages[at];
    const question = messages
      .slice(0, at)
      .reverse()
      .find((msg) => msg.role === "user");
    const [agent, [asker]] = await Promise.all([
      agentByIdIn(tx, session.agentId),
      tx
        .select({ name: schema.memberships.displayName })
        .from(schema.memberships)
        .where(and(eq(schema.memberships.tenantId, actor.tenantId), eq(schema.memberships.userId, session.userId))),
    ]);
    const review = answer.metadata.review as ReviewState | undefined;
    return {
      kind: "chat_answer",
      sessionId,
      question: question?.content ?? "",
      askedAt: question?.createdAt ?? answer.createdAt,
      asker: { id: session.userId, name: asker?.name ?? null },
      agent: { id: session.agentId, slug: agent?.slug ?? "", name: agent?.name ?? "" },
      // The agent's own answer, even after a reviewer's edit replaced what the asker reads.
      answer: {
        text: review?.originalContent ?? answer.content,
        confidence: answer.metadata.confidence ?? null,
        citations: answer.citations,
      },
      sources: answer.sources,
    };
  });
}
