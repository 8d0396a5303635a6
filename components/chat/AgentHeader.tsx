"use client";

import { useQuery } from "@tanstack/react-query";
import { SquarePen } from "lucide-react";
import Link from "next/link";
import type { ReactNode } from "react";
import { AgentIcon } from "@/components/ui/AgentIcon";
import { apiFetch } from "@/components/ui/api";
import { buttonVariants } from "@/components/ui/Button";
import { cn } from "@/components/ui/cn";
import type { ChatAgentRef } from "@/lib/chat/contract";

/**
 * Who this conversation is with, and which engine answers (the offline one says so). `leading`
 * and `actions` hold the phone's buttons for the conversations and sources sheets.
 */
export function AgentHeader({
  agent,
  title,
  engine,
  leading,
  actions,
}: {
  agent: ChatAgentRef;
  title?: string;
  engine?: string;
  leading?: ReactNode;
  actions?: ReactNode;
}) {
  // Before the first answer, the server's configured engine tells whether it will be offline.
  const health = useQuery({
    queryKey: ["health"],
    queryFn: () => apiFetch<{ engine?: string }>("/api/health"),
    staleTime: 5 * 60_000,
    enabled: !engine,
  });
  const shown = engine ?? health.data?.engine;
  return (
    <header className="flex items-center gap-2 border-b border-slate-200 pb-3 sm:gap-3 dark:border-slate-800">
      {leading}
      <AgentIcon avatar={agent.avatar} />
      <div className="min-w-0 flex-1">
        <h1 className="flex flex-wrap items-center gap-x-2 text-lg font-semibold leading-tight sm:text-xl">
          <span>{agent.name}</span>
          {shown === "offline" && (
            <span
              data-testid="offline-engine"
              title="Answers are extracted from the knowledge base without a language model."
              className="rounded-full border border-amber-300 bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-800 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-200"
            >
              offline engine
            </span>
          )}
        </h1>
        <p className="truncate text-sm text-slate-500 dark:text-slate-400">
          {agent.domain}
          {title ? <span className="text-slate-400"> · {title}</span> : null}
        </p>
      </div>
      {actions}
      <Link
        href={`/chat/new?agent=${encodeURIComponent(agent.slug)}`}
        className={cn(buttonVariants({ variant: "outline" }), "gap-1.5 p-2 sm:px-3 sm:py-1.5")}
      >
        <SquarePen aria-hidden className="size-4 sm:hidden" />
        <span className="sr-only sm:not-sr-only">New chat</span>
      </Link>
    </header>
  );
}
