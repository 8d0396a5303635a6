"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { RUNS_KEY, runSafetyLevelOf, SAFETY_LEVELS, type SafetyLevel, startAutonomousRun } from "./api";
import { SafetyLevelSelect } from "./SafetyLevelPicker";

export type ComposerMode = "ask" | "autonomous";

/** The longest goal a run takes (AutonomousInput). */
export const MAX_GOAL_CHARS = 4000;

/**
 * The chat composer's autonomous mode: the message becomes the goal of a run of the chat's
 * expert (saved to this conversation when there is one), and the run's page opens.
 */
export function useAutonomousMode(
  target: { agentId: string; sessionId: string | null; defaultSafetyLevel?: "low" | "medium" | "high" } | null,
) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<ComposerMode>("ask");
  // The agent's own default, as on the Runs page: both places start a run at the same level.
  const [safetyLevel, setSafetyLevel] = useState<SafetyLevel>(
    target?.defaultSafetyLevel ? runSafetyLevelOf(target.defaultSafetyLevel) : "strict",
  );
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function start(goal: string): Promise<boolean> {
    if (!target || starting) return false;
    setStarting(true);
    setError(null);
    try {
      const runId = await startAutonomousRun({
        goal,
        agentId: target.agentId,
        safetyLevel,
        ...(target.sessionId ? { sessionId: target.sessionId } : {}),
      });
      void queryClient.invalidateQueries({ queryKey: RUNS_KEY });
      router.push(`/runs/${runId}`);
      return true;
    } catch (e) {
      setError((e as Error).message);
      setStarting(false);
      return false;
    }
  }

  return {
    mode,
    setMode: (next: ComposerMode) => {
      setError(null);
      setMode(next);
    },
    safetyLevel,
    setSafetyLevel,
    starting,
    error,
    start,
  };
}

const segment =
  "cursor-pointer rounded-md px-2.5 py-1 text-xs font-medium text-slate-600 has-[:checked]:bg-white has-[:checked]:text-slate-900 has-[:checked]:shadow-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-500 dark:text-slate-300 dark:has-[:checked]:bg-slate-700 dark:has-[:checked]:text-white";

/** "Ask | Autonomous", with the run's safety level when autonomous. */
export function ModeSwitch({ state }: { state: ReturnType<typeof useAutonomousMode> }) {
  const id = useId();
  return (
    <div className="mb-2 flex flex-wrap items-center gap-x-3 gap-y-1.5">
      <fieldset className="inline-flex rounded-lg bg-slate-100 p-0.5 dark:bg-slate-800">
        <legend className="sr-only">Mode</legend>
        {(["ask", "autonomous"] as const).map((mode) => (
          <label key={mode} className={segment}>
            <input
              type="radio"
              name={`${id}-mode`}
              value={mode}
              checked={state.mode === mode}
              onChange={() => state.setMode(mode)}
              className="sr-only"
            />
            {mode === "ask" ? "Ask" : "Autonomous"}
          </label>
        ))}
      </fieldset>
      {state.mode === "autonomous" && (
        <SafetyLevelSelect
          id={`${id}-safety`}
          levels={SAFETY_LEVELS}
          value={state.safetyLevel}
          onChange={state.setSafetyLevel}
        />
      )}
    </div>
  );
}
