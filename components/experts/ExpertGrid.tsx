"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useDeferredValue, useEffect, useRef, useState } from "react";
import { AgentIcon } from "@/components/ui/AgentIcon";
import { apiFetch } from "@/components/ui/api";
import { EmptyState } from "@/components/ui/EmptyState";
import { Input } from "@/components/ui/Input";
import type { AgentCard } from "@/lib/experts/contract";

interface AgentList {
  count: number;
  items: AgentCard[];
}

export function ExpertGrid() {
  const [query, setQuery] = useState("");
  const deferred = useDeferredValue(query.trim());
  const search = useRef<HTMLInputElement>(null);
  const { data, error, isPending, isFetching } = useQuery({
    queryKey: ["agents", deferred],
    queryFn: () => apiFetch<AgentList>(`/api/agents${deferred ? `?q=${encodeURIComponent(deferred)}` : ""}`),
    placeholderData: (previous) => previous,
  });

  // "/" focuses the search, as in most catalogs.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "/" && document.activeElement?.tagName !== "INPUT") {
        e.preventDefault();
        search.current?.focus();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  return (
    <div>
      <div className="mb-6 flex items-center gap-3">
        <Input
          ref={search}
          type="search"
          placeholder="Search experts by name or domain  ( / )"
          aria-label="Search experts"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          className="w-full max-w-md text-base"
        />
        {isFetching && <span className="text-xs text-slate-500">Searching…</span>}
      </div>
      {error ? (
        <p
          role="alert"
          className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700 dark:bg-red-950 dark:text-red-300"
        >
          Could not load the experts: {error.message}
        </p>
      ) : isPending ? (
        <p className="text-sm text-slate-500">Loading experts…</p>
      ) : data.items.length === 0 ? (
        <EmptyState title={deferred ? `No expert matches “${deferred}”` : "No experts yet"}>
          {deferred ? "Try another name or domain." : "An admin can add agents for this tenant."}
        </EmptyState>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label="Experts">
          {data.items.map((agent) => (
            <li key={agent.id}>
              <Link
                href={`/chat/new?agent=${encodeURIComponent(agent.slug)}`}
                data-testid="expert-card"
                className="flex h-full flex-col rounded-xl border border-slate-200 bg-white p-5 shadow-sm transition hover:border-brand-500 hover:shadow dark:border-slate-800 dark:bg-slate-900"
              >
                <div className="flex items-center gap-3">
                  <AgentIcon avatar={agent.avatar} />
                  <div>
                    <h2 className="font-semibold">{agent.name}</h2>
                    <p className="text-xs text-slate-500 dark:text-slate-400">{agent.domain}</p>
                  </div>
                </div>
                <p className="mt-3 flex-1 text-sm text-slate-700 dark:text-slate-300">{agent.description}</p>
                <ul className="mt-3 flex flex-wrap gap-1.5" aria-label="Skills">
                  {agent.skills.map((skill) => (
                    <li
                      key={skill}
                      className="rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-700 dark:bg-slate-800 dark:text-slate-300"
                    >
                      {skill}
                    </li>
                  ))}
                </ul>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
