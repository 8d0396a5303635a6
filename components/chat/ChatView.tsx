"use client";

import { useChat } from "@ai-sdk/react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { ApiError } from "@/components/ui/api";
import { EmptyState } from "@/components/ui/EmptyState";
import type { ChatAgentRef, ChatMessage } from "@/lib/chat/contract";
import { AgentHeader } from "./AgentHeader";
import type { CitationTarget } from "./AnswerMarkdown";
import { cancelRun, fetchSession, SESSIONS_KEY, sessionKey, shownTextChars, toChatMessage } from "./api";
import { SessionsButton } from "./ChatLayout";
import { Composer } from "./Composer";
import { type Conversation, type ConversationEvents, createConversation } from "./conversation";
import { MessageList } from "./Messages";
import { answerText, citedNumbers, sourcesOf, webSourcesOf } from "./message-parts";
import { NewChatIntro } from "./NewChatIntro";
import { useConversationRegistry } from "./registry";
import { useAnswerReviews } from "./reviews";
import { SourcePicker } from "./SourcePicker";
import { SourcesPanel } from "./SourcesPanel";
import { SourcesSheet, sourcesInSheet } from "./SourcesSheet";

/** Conversations loaded while their run was still answering: re-attached once, on mount. */
const awaitingReattach = new WeakSet<Conversation>();

function useSettledRefresh(): ConversationEvents["onSettled"] {
  const queryClient = useQueryClient();
  return useCallback(() => {
    // The list's order and previews, and a title the first answer may have given the session.
    void queryClient.invalidateQueries({ queryKey: SESSIONS_KEY });
    void queryClient.invalidateQueries({ queryKey: ["chat", "session"] });
  }, [queryClient]);
}

/** `/chat/new?agent=…`: an empty conversation; the first question creates its session. */
export function NewChat({ agent, suggestions = [] }: { agent: ChatAgentRef; suggestions?: string[] }) {
  const registry = useConversationRegistry();
  const router = useRouter();
  const onSettled = useSettledRefresh();
  const [conversation] = useState(() => {
    const created: Conversation = createConversation(
      { agent },
      {
        onSessionCreated: (sessionId) => {
          registry.register(sessionId, created);
          onSettled?.();
          // The layout keeps the conversation (and its stream) while the page becomes /chat/<id>.
          router.replace(`/chat/${sessionId}`, { scroll: false });
        },
        onSettled,
      },
    );
    return created;
  });
  // The page becomes /chat/<id> as soon as the session exists, and that view watches the
  // answer's review: watching here too opened a stream only to close it on the way.
  return <ConversationView conversation={conversation} suggestions={suggestions} watchReviews={false} />;
}

/** `/chat/<id>`: the conversation so far; re-attaches to an answer still being written. */
export function SessionChat({ sessionId }: { sessionId: string }) {
  const registry = useConversationRegistry();
  const onSettled = useSettledRefresh();
  const { data, error } = useQuery({
    queryKey: sessionKey(sessionId),
    queryFn: () => fetchSession(sessionId),
    retry: (failures, e) => !(e instanceof ApiError && e.status < 500) && failures < 2,
    staleTime: Number.POSITIVE_INFINITY,
  });

  const conversation = useMemo(() => {
    const open = registry.get(sessionId);
    if (open) return open;
    if (!data) return null;
    const activeRunId = data.activeRun?.runId ?? null;
    const messages = data.messages
      // An answer still being written comes back whole from the run's stream.
      .filter((m) => !(activeRunId && m.role === "assistant" && m.metadata?.runId === activeRunId))
      .map(toChatMessage);
    const created = createConversation(
      { agent: data.session.agent, sessionId, messages, runId: activeRunId, dataSourceId: data.session.dataSourceId },
      { onSettled },
    );
    if (activeRunId) awaitingReattach.add(created);
    registry.register(sessionId, created);
    return created;
  }, [data, sessionId, registry, onSettled]);

  useEffect(() => {
    if (!conversation || !awaitingReattach.has(conversation)) return;
    awaitingReattach.delete(conversation);
    void conversation.chat.resumeStream();
  }, [conversation]);

  if (conversation) return <ConversationView conversation={conversation} title={data?.session.title} />;
  if (error) {
    const missing = error instanceof ApiError && (error.status === 404 || error.status === 403);
    return (
      <>
        <div className="mb-3 md:hidden">
          <SessionsButton withLabel />
        </div>
        <EmptyState title={missing ? "No such conversation" : "Could not load the conversation"}>
          {missing ? "It may have been deleted, or it belongs to someone else." : error.message}{" "}
          <Link className="underline" href="/experts">
            Pick an expert
          </Link>
        </EmptyState>
      </>
    );
  }
  return <ConversationSkeleton />;
}

function ConversationSkeleton() {
  return (
    <div className="flex h-full flex-col gap-4" role="status" aria-busy="true" aria-label="Loading the conversation">
      <div className="flex items-center gap-3 border-b border-slate-200 pb-3 dark:border-slate-800">
        <div className="h-10 w-10 animate-pulse rounded-full bg-slate-200 dark:bg-slate-800" />
        <div className="space-y-2">
          <div className="h-4 w-48 animate-pulse rounded bg-slate-200 dark:bg-slate-800" />
          <div className="h-3 w-32 animate-pulse rounded bg-slate-200 dark:bg-slate-800" />
        </div>
      </div>
      <div className="ml-auto h-10 w-2/3 animate-pulse rounded-2xl bg-slate-200 dark:bg-slate-800" />
      <div className="h-24 w-full animate-pulse rounded bg-slate-200 dark:bg-slate-800" />
    </div>
  );
}

/** The answer being written when its asker stopped it, marked as the server saves it. */
function markStopped(messages: ChatMessage[]): ChatMessage[] {
  const last = messages.at(-1);
  if (last?.role === "assistant")
    return [...messages.slice(0, -1), { ...last, metadata: { ...last.metadata, stopped: true } }];
  return [...messages, { id: `stopped-${messages.length}`, role: "assistant", parts: [], metadata: { stopped: true } }];
}

function lastAssistant(messages: ChatMessage[]): ChatMessage | undefined {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i].role === "assistant") return messages[i];
  return undefined;
}

function ConversationView({
  conversation,
  title,
  suggestions = [],
  watchReviews = true,
}: {
  conversation: Conversation;
  title?: string;
  suggestions?: string[];
  watchReviews?: boolean;
}) {
  const { agent } = conversation;
  const { messages, status, sendMessage, regenerate, stop, setMessages } = useChat<ChatMessage>({
    chat: conversation.chat,
    experimental_throttle: 50,
  });
  const busy = status === "submitted" || status === "streaming";
  // Not while an answer streams: the stream owns the messages until it settles.
  useAnswerReviews(busy || !watchReviews ? null : conversation.sessionId, messages, setMessages);
  const [focus, setFocus] = useState<{ messageId: string; target: CitationTarget | null } | null>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);

  // The server keeps what was on screen as a stopped answer; the page shows the same at once.
  // A Stop that reaches the server after the answer finished stops nothing: the page then shows
  // the finished answer the server kept, so a reload shows no different answer.
  const stopAnswer = useCallback(() => {
    const runId = conversation.runId;
    const shown = shownTextChars(conversation.chat.messages);
    const stopped = stop().then(() => setMessages((current) => markStopped(current)));
    if (!runId) return;
    void cancelRun(runId, shown).then(async (outcome) => {
      const sessionId = conversation.sessionId;
      if (outcome !== "already-finished" || !sessionId) return;
      const [detail] = await Promise.all([fetchSession(sessionId).catch(() => null), stopped]);
      if (detail) setMessages(detail.messages.map(toChatMessage));
    });
  }, [stop, setMessages, conversation]);

  // Esc stops the answer wherever the focus is.
  useEffect(() => {
    if (!busy) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && !e.defaultPrevented) stopAnswer();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [busy, stopAnswer]);

  // Follow the stream unless the reader scrolled up.
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll whenever the messages change
  useEffect(() => {
    const el = scroller.current;
    if (el && pinned.current) el.scrollTop = el.scrollHeight;
  }, [messages]);

  const focused =
    (focus && messages.find((m) => m.id === focus.messageId && m.role === "assistant")) || lastAssistant(messages);
  const focusedSources = focused ? sourcesOf(focused) : [];
  const engine = lastAssistant(messages.filter((m) => m.metadata?.engine))?.metadata?.engine;

  // Below `lg` the sources are a sheet: a citation or "show sources" opens it.
  const [sourcesOpen, setSourcesOpen] = useState(false);
  const showSources = useCallback((messageId: string, target: CitationTarget | null) => {
    setFocus({ messageId, target });
    if (sourcesInSheet()) setSourcesOpen(true);
  }, []);

  const ask = (text: string) => {
    pinned.current = true;
    setFocus(null);
    conversation.liveStep = null;
    void sendMessage({ text, metadata: { createdAt: new Date().toISOString() } });
  };

  const sourcesPanel = {
    sources: focusedSources,
    webSources: focused ? webSourcesOf(focused) : [],
    cited: focused ? citedNumbers(focused, answerText(focused)) : [],
    selected: focus?.target ?? null,
    loading: busy && focused === messages.at(-1),
    onSelect: (target: CitationTarget) => focused && setFocus({ messageId: focused.id, target }),
    onClose: () => setFocus((f) => (f ? { ...f, target: null } : null)),
  };

  return (
    <div className="grid h-full min-h-0 grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_18rem]">
      <section aria-label={`Conversation with ${agent.name}`} className="flex h-full min-h-0 min-w-0 flex-col gap-3">
        <AgentHeader
          agent={agent}
          title={title}
          engine={engine}
          leading={<SessionsButton />}
          actions={<SourcesSheet open={sourcesOpen} onOpenChange={setSourcesOpen} {...sourcesPanel} />}
        />
        <div
          ref={scroller}
          onScroll={(e) => {
            const el = e.currentTarget;
            pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
          }}
          className="min-h-0 flex-1 overflow-y-auto pr-1"
        >
          {messages.length === 0 ? (
            <NewChatIntro agent={agent} suggestions={suggestions} disabled={busy} onAsk={ask} />
          ) : (
            <MessageList
              messages={messages}
              status={status}
              liveStep={conversation.liveStep}
              onRetry={() => {
                conversation.liveStep = null;
                void regenerate();
              }}
              onAsk={ask}
              onOpenCitation={showSources}
              onShowSources={(messageId) => showSources(messageId, null)}
            />
          )}
        </div>
        <Composer
          agentName={agent.name}
          busy={busy}
          onSend={ask}
          onStop={stopAnswer}
          autonomous={{
            agentId: agent.slug,
            sessionId: conversation.sessionId,
            defaultSafetyLevel: agent.defaultSafetyLevel,
          }}
          extra={agent.workflow === "sql-analyst" ? <SourcePicker conversation={conversation} disabled={busy} /> : null}
        />
      </section>
      <div className="hidden min-h-0 lg:flex lg:flex-col">
        <SourcesPanel {...sourcesPanel} />
      </div>
    </div>
  );
}
