import type { Role } from "@/lib/access";
import type { SourceItem } from "@/lib/runs/protocol";

export type { SourceItem };

/** Who is chatting: the principal from the session, never from a body. */
export interface ChatActor {
  tenantId: string;
  userId: string;
  role: Role;
}

export interface ChatAgentRef {
  id: string;
  slug: string;
  name: string;
  avatar: string;
  domain: string;
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

export interface ReviewState {
  caseId: string;
  status: string;
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
