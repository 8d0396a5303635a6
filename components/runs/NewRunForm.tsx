"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { type FormEvent, useId, useState } from "react";
import { Button } from "@/components/ui/Button";
import { Textarea } from "@/components/ui/Input";
import { Label } from "@/components/ui/Label";
import { Select } from "@/components/ui/Select";
import { fetchAgents, RUNS_KEY, runSafetyLevelOf, SAFETY_LEVELS, type SafetyLevel, startAutonomousRun } from "./api";
import { SafetyLevelPicker } from "./SafetyLevelPicker";

/** The expert's own setting as a run's level (high → strict, medium → balanced, low → permissive). */

/** Starts an autonomous run on a goal and opens it. */
export function NewRunForm() {
  const ids = useId();
  const router = useRouter();
  const queryClient = useQueryClient();
  const agents = useQuery({ queryKey: [...RUNS_KEY, "agents"], queryFn: fetchAgents, staleTime: 60_000 });
  const [goal, setGoal] = useState("");
  const [agentSlug, setAgentSlug] = useState("");
  const [level, setLevel] = useState<SafetyLevel | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const active = (agents.data ?? []).filter((a) => a.status === "active");
  const slug = agentSlug || active[0]?.slug || "";
  const agent = active.find((a) => a.slug === slug);
  const safetyLevel: SafetyLevel = level ?? (agent ? runSafetyLevelOf(agent.defaultSafetyLevel) : "strict");

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    if (!goal.trim()) return setProblem("Write the goal first.");
    if (!slug) return setProblem("Pick an expert.");
    setProblem(null);
    setBusy(true);
    try {
      const runId = await startAutonomousRun({ goal: goal.trim(), agentId: slug, safetyLevel });
      void queryClient.invalidateQueries({ queryKey: RUNS_KEY });
      router.push(`/runs/${runId}`);
    } catch (error) {
      setProblem((error as Error).message);
      setBusy(false);
    }
  }

  return (
    <form
      onSubmit={submit}
      aria-labelledby={`${ids}-title`}
      className="space-y-4 rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
    >
      <h2 id={`${ids}-title`} className="text-lg font-medium">
        New autonomous run
      </h2>
      <div>
        <Label htmlFor={`${ids}-goal`} className="mb-1 block">
          Goal
        </Label>
        <Textarea
          id={`${ids}-goal`}
          className="w-full"
          rows={4}
          maxLength={4000}
          value={goal}
          onChange={(e) => setGoal(e.target.value)}
          placeholder="What should the expert find out or decide?"
        />
      </div>
      <div>
        <Label htmlFor={`${ids}-agent`} className="mb-1 block">
          Expert
        </Label>
        <Select
          id={`${ids}-agent`}
          className="w-full"
          value={slug}
          onChange={(e) => {
            setAgentSlug(e.target.value);
            setLevel(null);
          }}
          disabled={agents.isPending || active.length === 0}
        >
          {agents.isPending && <option value="">Loading experts…</option>}
          {active.map((a) => (
            <option key={a.id} value={a.slug}>
              {a.name}
            </option>
          ))}
        </Select>
        {agent && <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">{agent.domain}</p>}
        {agents.error && (
          <p role="alert" className="mt-1 text-sm text-red-600 dark:text-red-400">
            Could not load the experts: {agents.error.message}
          </p>
        )}
      </div>
      <SafetyLevelPicker levels={SAFETY_LEVELS} value={safetyLevel} onChange={setLevel} />
      <div aria-live="polite">
        {problem && (
          <p role="alert" className="mb-2 text-sm text-red-600 dark:text-red-400">
            {problem}
          </p>
        )}
      </div>
      <Button type="submit" disabled={busy}>
        {busy ? "Starting…" : "Start run"}
      </Button>
    </form>
  );
}
