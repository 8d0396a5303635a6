// The chat's client-safe contract: the /api/chat request, the sessions API's answers and the
// message the chat streams. The route handlers validate with these schemas and the UI types its
// calls with the same names, so the two cannot drift.

import type { UIMessage } from "ai";
import { z } from "zod";
import type {
  DataParts,
  RephrasingsPart,
  ReviewState,
  RunMetadata,
  SourceItem,
  SqlResultPart,
} from "@/lib/runs/contract";

export type { ReviewState, SourceItem };

/** A chat message is at most 8 KiB of UTF-8. */
export const MAX_MESSAGE_BYTES = 8192;
export const MAX_TITLE_CHARS = 120;
export const SESSION_PAGE_MAX = 100;
/** The sessions list's title search (`q`) is at most this long. */
export const SESSION_SEARCH_MAX_CHARS = 100;

/** `POST /api/chat`: one turn of a consultation. */
export const ChatRequest = z.object({
  sessionId: z.uuid().optional(),
  agentId: z.string().trim().min(1).max(200),
  // The byte limit is checked where the turn starts (UTF-8 length); this only bounds the string.
  message: z.string().max(MAX_MESSAGE_BYTES),
  /** Answer the session's last question again ("retry"), without storing it twice. */
  retry: z.boolean().optional(),
  /**
   * `ask` (the default): one answer from the agent. `autonomous`: the agent works the message as
   * a goal — plan, tools, other experts — stopping at checkpoints for people (an autonomous run).
   */
  mode: z.enum(["ask", "autonomous"]).optional(),
  /** For `autonomous`: which checkpoints ask a person (the agent's own default otherwise). */
  safetyLevel: z.enum(["strict", "balanced", "permissive"]).optional(),
  /**
   * The data source the Data Analyst asks in this consultation (one of the tenant's enabled
   * sources); remembered on the session, so later turns need not send it again.
   */
  dataSourceId: z.uuid().optional(),
});
export type ChatRequest = z.infer<typeof ChatRequest>;

/**
 * A chat answer streams as a run's message. `createdAt` is the stored message's time (a
 * question the browser just sent carries the time it was sent).
 */
export type ChatMetadata = RunMetadata & { createdAt?: string };
export type ChatMessage = UIMessage<ChatMetadata, DataParts>;

export interface ChatAgentRef {
  id: string;
  slug: string;
  name: string;
  avatar: string;
  domain: string;
  description?: string | null;
  /** The workflow that answers (`sql-analyst` for the Data Analyst, which offers a source picker). */
  workflow?: string;
  /** The agent's default safety level, which an autonomous run started from the chat takes. */
  defaultSafetyLevel?: "low" | "medium" | "high";
}

export interface ChatSessionListItem {
  id: string;
  title: string;
  agent: ChatAgentRef;
  updatedAt: string;
  lastMessagePreview: string | null;
}

export interface ChatSessionPage {
  items: ChatSessionListItem[];
  nextCursor: string | null;
}

/** `GET /api/chat/sessions`. */
export interface ChatSessionListResponse {
  status: "success";
  count: number;
  items: ChatSessionListItem[];
  next_cursor: string | null;
}

/** What an assistant message carries besides its text (stored in chat_messages.metadata). */
export interface ChatMessageMetadata {
  runId?: string;
  confidence?: number;
  engine?: string;
  model?: string;
  review?: ReviewState;
  /** Its asker stopped the answer: the text is what had arrived by then. */
  stopped?: boolean;
  /** The SQL analyst's query and result, shown again when the conversation is reopened. */
  sql?: SqlResultPart;
  /** The SQL analyst's decline: the words it could not place and questions it answers instead. */
  rephrasings?: RephrasingsPart;
}

export interface ChatMessageView {
  id: string;
  role: "user" | "assistant";
  content: string;
  sources: SourceItem[];
  citations: number[];
  metadata: ChatMessageMetadata;
  createdAt: string;
}

export interface ChatSessionDetail {
  session: {
    id: string;
    title: string;
    agent: ChatAgentRef & { description: string };
    createdAt: string;
    updatedAt: string;
    /** The data source this consultation asks (picked, or remembered from its first answer). */
    dataSourceId: string | null;
  };
  messages: ChatMessageView[];
  /** The session's latest run while it is still running: re-attach with GET /api/runs/{runId}/stream. */
  activeRun: { runId: string; status: "running" } | null;
}

/** `GET /api/chat/sessions/{id}`. */
export type ChatSessionDetailResponse = { status: "success" } & ChatSessionDetail;

/** Where the review of an answer stands, as its asker reads it. */
export const ANSWER_REVIEW_STATUSES = [
  "pending",
  "needs_clarification",
  "approved",
  "modified",
  "rejected",
  "timeout",
] as const;
export type AnswerReviewStatus = (typeof ANSWER_REVIEW_STATUSES)[number];

/** The statuses a review ends in once its decision is applied to the answer. */
const SETTLED_REVIEW_STATUSES: readonly string[] = ["approved", "modified", "rejected", "timeout"];

/** Whether a stored review status is final (its decision applied to the answer). */
export function reviewSettled(status: string): boolean {
  return SETTLED_REVIEW_STATUSES.includes(status);
}

export interface AnswerReview {
  /** The chat run whose answer is under review (the message's `metadata.runId`). */
  runId: string;
  caseId: string;
  status: AnswerReviewStatus;
  /** The reviewer's open question (status `needs_clarification`). */
  question: string | null;
  /** The decision's reason, if it gave one. */
  reason: string | null;
  decidedAt: string | null;
  /** The text the asker reads now: a reviewer's edit replaces the answer. */
  content: string;
  /** The answer as the agent wrote it, when a reviewer edited it. */
  originalContent: string | null;
  /** False while a decision is made but not yet applied to the answer. */
  settled: boolean;
}

/** `GET /api/chat/sessions/{id}/reviews`: each server-sent event carries every review of the session. */
export interface AnswerReviewsEvent {
  reviews: AnswerReview[];
}

/** One of the caller's answers under review, across their sessions (the "My requests" page). */
export interface MyAnswerReview extends AnswerReview {
  sessionId: string;
  sessionTitle: string;
  agentName: string;
  /** When the answer was given. */
  answeredAt: string;
}

/** What a reviewer of a chat answer sees besides the answer: the question, who asked, the sources. */
export interface AnswerReviewContext {
  kind: "chat_answer";
  sessionId: string;
  question: string;
  askedAt: string;
  asker: { id: string; name: string | null };
  agent: { id: string; slug: string; name: string };
  answer: { text: string; confidence: number | null; citations: number[] };
  sources: SourceItem[];
}

/** The stream's final message metadata for a chat answer (the executor adds `runId` and `status`). */
export interface ChatAnswerMetadata {
  runId: string;
  sessionId: string;
  citations: number[];
  confidence: number;
  engine: string;
  model: string;
  review?: ReviewState;
}
