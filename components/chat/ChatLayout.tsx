"use client";

import { MessagesSquare } from "lucide-react";
import { usePathname } from "next/navigation";
import { type MouseEvent, type ReactNode, Suspense, useEffect, useState } from "react";
import { buttonVariants } from "@/components/ui/Button";
import { cn } from "@/components/ui/cn";
import { Sheet, SheetContent, SheetTrigger } from "@/components/ui/Sheet";
import { ConversationRegistryProvider } from "./registry";
import { SessionSidebar } from "./SessionSidebar";

/**
 * Conversations on the left, the open one on the right; shared by every chat page. Below `md`
 * the list is a sheet opened from the chat's header (`SessionsButton`), and the conversation
 * fills the screen under the app header, so its composer stays at the bottom.
 */
export function ChatLayout({ children }: { children: ReactNode }) {
  const pathname = usePathname();
  const [listOpen, setListOpen] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: fold on every navigation
  useEffect(() => setListOpen(false), [pathname]);
  // A link to the page already open ("New chat" for the same expert) changes no path: close anyway.
  const closeOnLink = (e: MouseEvent) => {
    if (e.target instanceof Element && e.target.closest("a[href]")) setListOpen(false);
  };
  return (
    <ConversationRegistryProvider>
      <Sheet open={listOpen} onOpenChange={setListOpen}>
        <SheetContent side="left" title="Conversations" onClickCapture={closeOnLink} data-testid="sessions-sheet">
          <Suspense fallback={null}>
            <SessionSidebar />
          </Suspense>
        </SheetContent>
        {/* Phone: the app header (3.5rem and its border) and main's padding (2 × 1.5rem) take the rest. */}
        <div className="grid h-[calc(100dvh-3.5rem-1px-3rem)] grid-cols-1 gap-6 md:h-[calc(100dvh-7.5rem)] md:min-h-[30rem] md:grid-cols-[15rem_minmax(0,1fr)]">
          <div className="hidden min-h-0 min-w-0 flex-col md:flex">
            <Suspense fallback={null}>
              <SessionSidebar />
            </Suspense>
          </div>
          <div className="min-h-0 min-w-0">{children}</div>
        </div>
      </Sheet>
    </ConversationRegistryProvider>
  );
}

/** Opens the conversations sheet; only on a phone, where the list is not beside the chat. */
export function SessionsButton({ withLabel = false }: { withLabel?: boolean }) {
  return (
    <SheetTrigger
      aria-label="Conversations"
      className={cn(buttonVariants({ variant: "outline" }), "gap-1.5 p-2 md:hidden")}
    >
      <MessagesSquare aria-hidden className="size-4" />
      {withLabel && <span>Conversations</span>}
    </SheetTrigger>
  );
}
