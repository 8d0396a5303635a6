"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { type FormEvent, useId, useState } from "react";
import { fetchAgents } from "@/components/runs/api";
import { Button } from "@/components/ui/Button";
import { Textarea } from "@/components/ui/Input";
import { Select } from "@/components/ui/Select";
import { RESEARCH_KEY, RESEARCH_WORKFLOW, startResearch } from "./api";

/** Starts a research run on a question and opens it. */
export function NewResearchForm() {
  const ids = useId();
  const router = useRouter();
  const queryClient = useQueryClient();
  const agents = useQuery({ queryKey: [...RESEARCH_KEY, "agents"], queryFn: fetchAgents, staleTime: 60_000 });
  const [query, setQuery] = useState("");
  const [agentSlug, setAgentSlug] = useState("");
  const [skipClarification, setSkip] = useState(false);
  const [useFallbackSearch, setFallback] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // Only agents the deep-research workflow answers for can run research.
  const analysts = (agents.data ?? []).filter((a) => a.status === "active" && a.workflow === RESEARCH_WORKFLOW);
  const slug = agentSlug || analysts[0]?.slug || "";

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    if (!query.trim()) return setProblem("Write your question first.");
    if (!slug) return setProblem("There is no research agent in this workspace yet: ask an admin to enable one.");
    setProblem(null);
    setBusy(true);
    try {
      const runId = await startResearch({
        query: query.trim(),
        agentId: slug,
        ...(skipClarification ? { skipClarification: true } : {}),
        ...(useFallbackSearch ? { useFallbackSearch: true } : {}),
      });
      void queryClient.invalidateQueries({ queryKey: RESEARCH_KEY });
      router.push(`/research/${runId}`);
    } catch (error) {
      setProblem((error as Error).message);
      setBusy(false);
    }
  }

  return (
    <form
      onSubmit={submit}
      aria-labelledby={`${ids}-title`}
      data-testid="new-research-form"
      className="space-y-4 rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
    >
      <h2 id={`${ids}-title`} className="text-lg font-medium">
        New research
      </h2>
      <div>
        <label htmlFor={`${ids}-query`} className="mb-1 block text-sm font-medium">
          Question
        </label>
        <Textarea
          id={`${ids}-query`}
          className="w-full min-w-0"
          rows={4}
          maxLength={4000}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          placeholder="What should be researched in your documents? German or English."
        />
      </div>
      <div>
        <label htmlFor={`${ids}-agent`} className="mb-1 block text-sm font-medium">
          Research agent
        </label>
        <Select
          id={`${ids}-agent`}
          className="w-full min-w-0"
          value={slug}
          onChange={(e) => setAgentSlug(e.target.value)}
          disabled={analysts.length === 0}
        >
          {analysts.length === 0 && <option value="">{agents.isPending ? "Loading…" : "No research agent"}</option>}
          {analysts.map((a) => (
            <option key={a.slug} value={a.slug}>
              {a.name}
            </option>
          ))}
        </Select>
      </div>
      <fieldset className="space-y-2">
        <legend className="sr-only">Options</legend>
        <label className="flex items-start gap-2 text-sm">
          <input
            type="checkbox"
            className="mt-0.5"
            checked={skipClarification}
            onChange={(e) => setSkip(e.target.checked)}
          />
          <span>
            Skip clarification
            <span className="block text-xs text-slate-500 dark:text-slate-400">
              Go straight to the plan without clarifying questions.
            </span>
          </span>
        </label>
        <label className="flex items-start gap-2 text-sm">
          <input
            type="checkbox"
            className="mt-0.5"
            checked={useFallbackSearch}
            onChange={(e) => setFallback(e.target.checked)}
          />
          <span>
            Also search the web and PubMed for this run
            <span className="block text-xs text-slate-500 dark:text-slate-400">
              Otherwise research uses only your workspace&apos;s documents.
            </span>
          </span>
        </label>
      </fieldset>
      {problem && (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {problem}
        </p>
      )}
      <Button type="submit" disabled={busy}>
        {busy ? "Starting…" : "Start research"}
      </Button>
    </form>
  );
}
