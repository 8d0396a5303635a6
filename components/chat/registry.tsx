"use client";

import { createContext, type ReactNode, useContext, useRef } from "react";
import type { Conversation } from "./conversation";

/**
 * The conversations open in this tab, by session id. It lives in the chat layout, so a new
 * conversation that just got its session keeps streaming when its page becomes /chat/<id>.
 */
export interface ConversationRegistry {
  get(sessionId: string): Conversation | undefined;
  register(sessionId: string, conversation: Conversation): void;
  forget(sessionId: string): void;
}

const RegistryContext = createContext<ConversationRegistry | null>(null);

export function ConversationRegistryProvider({ children }: { children: ReactNode }) {
  const registry = useRef<ConversationRegistry | null>(null);
  if (!registry.current) {
    const open = new Map<string, Conversation>();
    registry.current = {
      get: (id) => open.get(id),
      register: (id, conversation) => {
        open.set(id, conversation);
      },
      forget: (id) => {
        const conversation = open.get(id);
        if (conversation && conversation.chat.status !== "ready" && conversation.chat.status !== "error") {
          void conversation.chat.stop();
        }
        open.delete(id);
      },
    };
  }
  return <RegistryContext.Provider value={registry.current}>{children}</RegistryContext.Provider>;
}

export function useConversationRegistry(): ConversationRegistry {
  const registry = useContext(RegistryContext);
  if (!registry) throw new Error("useConversationRegistry needs a ConversationRegistryProvider.");
  return registry;
}
