"use client";

import { MessageCircleQuestion } from "lucide-react";
import { AgentIcon } from "@/components/ui/AgentIcon";
import type { ChatAgentRef } from "@/lib/chat/contract";

/**
 * What an empty conversation shows: who answers, how, and a few questions drawn from the
 * knowledge the agent answers from. Choosing one asks it.
 */
export function NewChatIntro({
  agent,
  suggestions,
  disabled,
  onAsk,
}: {
  agent: ChatAgentRef;
  suggestions: string[];
  disabled?: boolean;
  onAsk: (question: string) => void;
}) {
  return (
    <div className="mx-auto mt-10 max-w-lg text-center">
      <AgentIcon avatar={agent.avatar} size="lg" />
      <h2 className="mt-2 text-lg font-medium">Ask {agent.name}</h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        {agent.description || `Questions about ${agent.domain.toLowerCase()} are answered from your knowledge base.`}{" "}
        Every claim cites its source; click a number to read the passage.
      </p>
      {suggestions.length > 0 && (
        <section aria-labelledby="suggested-questions" className="mt-6 text-left">
          <h3
            id="suggested-questions"
            className="px-1 text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400"
          >
            Try asking
          </h3>
          <ul className="mt-2 grid gap-2 sm:grid-cols-2" data-testid="suggested-questions">
            {suggestions.map((question) => (
              <li key={question} className="flex">
                <button
                  type="button"
                  disabled={disabled}
                  onClick={() => onAsk(question)}
                  className="flex w-full items-start gap-2 rounded-lg border border-slate-200 bg-white px-3 py-2 text-left text-sm text-slate-700 hover:border-brand-500 hover:bg-brand-50 disabled:cursor-not-allowed disabled:opacity-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800"
                >
                  <MessageCircleQuestion aria-hidden className="mt-0.5 h-4 w-4 shrink-0 text-brand-600" />
                  <span>{question}</span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
