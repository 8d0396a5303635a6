import type { UIMessage } from "ai";
import type { DataParts, SourceItem } from "@/lib/runs/protocol";

// The chat's side of the /api/chat contract: what the stream and the sessions API carry.

/** One source of an answer; the answer cites it as `[n]`. */
export type { SourceItem };

export interface ReviewInfo {
  caseId: string;
  status: string;
}

/** Message metadata: `{runId}` from the start part, the rest from the final metadata part. */
export interface ChatMetadata {
  runId?: string;
  sessionId?: string;
  citations?: number[];
  confidence?: number;
  engine?: string;
  model?: string;
  review?: ReviewInfo | null;
  status?: string;
}

export interface ChatDataParts {
  step: DataParts["step"];
  sources: DataParts["sources"];
  [name: string]: unknown;
}

export type ChatMessage = UIMessage<ChatMetadata, ChatDataParts>;

export interface ChatAgent {
  id: string;
  slug: string;
  name: string;
  avatar: string;
  domain: string;
  description?: string | null;
}

export interface SessionSummary {
  id: string;
  title: string;
  agent: ChatAgent;
  updatedAt: string;
  lastMessagePreview: string | null;
}

export interface SessionList {
  status: "success";
  count: number;
  items: SessionSummary[];
  next_cursor: string | null;
}

export interface StoredMessage {
  id: string;
  role: "user" | "assistant" | "system";
  content: string;
  sources: SourceItem[] | null;
  citations: number[] | null;
  metadata: ChatMetadata | null;
  createdAt: string;
}

export interface SessionDetail {
  status: "success";
  session: { id: string; title: string; agent: ChatAgent; createdAt: string; updatedAt: string };
  messages: StoredMessage[];
  activeRun: { runId: string; status: string } | null;
}
