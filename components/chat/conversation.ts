import { Chat } from "@ai-sdk/react";
import { DefaultChatTransport } from "ai";
import { toast } from "sonner";
import type { ChatAgentRef, ChatMessage } from "@/lib/chat/contract";
import type { DataParts } from "@/lib/runs/contract";
import { cancelRun, errorMessage } from "./api";

/**
 * One conversation with one agent: a `Chat` whose transport speaks the /api/chat contract — it
 * sends only the new question with the session and agent, learns the session and run ids from
 * the response headers, and re-attaches to a running answer through the run's own stream.
 */
export interface Conversation {
  chat: Chat<ChatMessage>;
  /** The session, once the server created it. */
  sessionId: string | null;
  agent: ChatAgentRef;
  /** The run answering right now (or last), for re-attaching and cancelling. */
  runId: string | null;
  /** The step reported last while an answer streams, in arrival order (parts keep first-seen order). */
  liveStep: DataParts["step"] | null;
  /** The data source the session asks (the Data Analyst), as the server last said. */
  dataSourceId: string | null;
  /** A source picked here and not yet sent: the next question carries it as `dataSourceId`. */
  pickedSourceId: string | null;
}

export interface ConversationEvents {
  /** The first answer of a new conversation created its session. */
  onSessionCreated?: (sessionId: string) => void;
  /** An answer finished (or stopped): lists and titles may have changed. */
  onSettled?: () => void;
}

function lastUserText(messages: ChatMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== "user") continue;
    return m.parts.map((p) => (p.type === "text" ? p.text : "")).join("");
  }
  return "";
}

export function createConversation(
  init: {
    agent: ChatAgentRef;
    sessionId?: string | null;
    messages?: ChatMessage[];
    runId?: string | null;
    dataSourceId?: string | null;
  },
  events: ConversationEvents = {},
): Conversation {
  const conversation: Conversation = {
    chat: undefined as unknown as Chat<ChatMessage>,
    sessionId: init.sessionId ?? null,
    agent: init.agent,
    runId: init.runId ?? null,
    liveStep: null,
    dataSourceId: init.dataSourceId ?? null,
    pickedSourceId: null,
  };

  const transport = new DefaultChatTransport<ChatMessage>({
    api: "/api/chat",
    credentials: "same-origin",
    fetch: async (input, requestInit) => {
      // Stopping aborts the request; one stopped before its headers arrived must still learn
      // its run, to cancel it on the server. So the request has a signal of its own that
      // follows the caller's only once the headers are in.
      const stopped = requestInit?.signal;
      const own = new AbortController();
      const response = await fetch(input, { ...requestInit, signal: own.signal });
      const sessionId = response.headers.get("x-vigil-session-id");
      const runId = response.headers.get("x-vigil-run-id");
      if (runId) conversation.runId = runId;
      // The server took the picked source: the session asks it from now on.
      if (response.ok && conversation.pickedSourceId) {
        conversation.dataSourceId = conversation.pickedSourceId;
        conversation.pickedSourceId = null;
      }
      if (sessionId && sessionId !== conversation.sessionId) {
        const created = conversation.sessionId === null;
        conversation.sessionId = sessionId;
        if (created) events.onSessionCreated?.(sessionId);
      }
      if (stopped?.aborted) {
        own.abort();
        // Nothing of the answer was on screen yet.
        if (runId) void cancelRun(runId, 0);
        throw new DOMException("The answer was stopped.", "AbortError");
      }
      stopped?.addEventListener("abort", () => own.abort(), { once: true });
      return response;
    },
    prepareSendMessagesRequest: ({ messages, trigger }) => {
      // The run that answers is known once the response's headers arrive.
      conversation.runId = null;
      return {
        body: {
          ...(conversation.sessionId ? { sessionId: conversation.sessionId } : {}),
          agentId: conversation.agent.id,
          message: lastUserText(messages),
          ...(trigger === "regenerate-message" ? { retry: true } : {}),
          ...(conversation.pickedSourceId ? { dataSourceId: conversation.pickedSourceId } : {}),
        },
      };
    },
    prepareReconnectToStreamRequest: () => {
      if (!conversation.runId) throw new Error("There is no running answer to re-attach to.");
      return { api: `/api/runs/${encodeURIComponent(conversation.runId)}/stream` };
    },
  });

  conversation.chat = new Chat<ChatMessage>({
    id: init.sessionId ?? undefined,
    messages: init.messages ?? [],
    transport,
    onError: (error) => {
      toast.error(errorMessage(error));
    },
    onData: (part) => {
      if (part.type === "data-step") conversation.liveStep = part.data as DataParts["step"];
    },
    onFinish: ({ message }) => {
      conversation.liveStep = null;
      const runId = message.metadata?.runId;
      if (runId) conversation.runId = runId;
      events.onSettled?.();
    },
  });
  return conversation;
}
