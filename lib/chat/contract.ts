// The chat's client-safe contract: the /api/chat request, the sessions API's answers and the
// message the chat streams. The route handlers validate with these schemas and the UI types its
// calls with the same names, so the two cannot drift.
import { z } from "zod";
import type { ReviewState, RunMetadata, RunUIMessage, SourceItem } from "@/lib/runs/contract";

export type { ReviewState, SourceItem };

/** A chat message is at most 8 KiB of UTF-8. */
export const MAX_MESSAGE_BYTES = 8192;
export const MAX_TITLE_CHARS = 120;
export const SESSION_PAGE_MAX = 100;

/** `POST /api/chat`: one turn of a consultation. */
export const ChatRequest = z.object({
  sessionId: z.uuid().optional(),
  agentId: z.string().trim().min(1).max(200),
  // The byte limit is checked where the turn starts (UTF-8 length); this only bounds the string.
  message: z.string().max(MAX_MESSAGE_BYTES),
  /** Answer the session's last question again ("retry"), without storing it twice. */
  retry: z.boolean().optional(),
});
export type ChatRequest = z.infer<typeof ChatRequest>;

/** A chat answer streams as a run's message. */
export type ChatMetadata = RunMetadata;
export type ChatMessage = RunUIMessage;

export interface ChatAgentRef {
  id: string;
  slug: string;
  name: string;
  avatar: string;
  domain: string;
  description?: string | null;
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
  };
  messages: ChatMessageView[];
  /** The session's latest run while it is still running: re-attach with GET /api/runs/{runId}/stream. */
  activeRun: { runId: string; status: "running" } | null;
}

/** `GET /api/chat/sessions/{id}`. */
export type ChatSessionDetailResponse = { status: "success" } & ChatSessionDetail;

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
