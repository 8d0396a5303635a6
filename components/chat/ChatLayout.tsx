"use client";

import { usePathname } from "next/navigation";
import { type ReactNode, Suspense, useEffect, useState } from "react";
import { ConversationRegistryProvider } from "./registry";
import { SessionSidebar } from "./SessionSidebar";

/** Conversations on the left, the open one on the right; shared by every chat page. */
export function ChatLayout({ children }: { children: ReactNode }) {
  const pathname = usePathname();
  // On a narrow screen the list folds away; opening a conversation folds it again.
  const [listOpen, setListOpen] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: fold on every navigation
  useEffect(() => setListOpen(false), [pathname]);
  return (
    <ConversationRegistryProvider>
      <button
        type="button"
        aria-expanded={listOpen}
        aria-controls="chat-sessions"
        onClick={() => setListOpen((open) => !open)}
        className="mb-3 rounded-md border border-slate-300 px-3 py-1.5 text-sm md:hidden dark:border-slate-700"
      >
        {listOpen ? "Hide conversations" : "Conversations"}
      </button>
      <div className="grid h-[calc(100dvh-7.5rem)] min-h-[30rem] grid-cols-1 gap-6 md:grid-cols-[15rem_minmax(0,1fr)]">
        <div id="chat-sessions" className={`${listOpen ? "flex" : "hidden"} min-h-0 min-w-0 flex-col md:flex`}>
          <Suspense fallback={null}>
            <SessionSidebar />
          </Suspense>
        </div>
        <div className={`${listOpen ? "hidden" : ""} min-h-0 md:block`}>{children}</div>
      </div>
    </ConversationRegistryProvider>
  );
}
