"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { apiFetch } from "@/components/ui/api";
import {
  DECIDER_CHECKPOINT_TYPES,
  DECIDER_SAFETY_LEVELS,
  type DeciderCheckpointType,
  type DeciderPolicyTable,
  type DeciderRule,
  type DeciderSafetyLevel,
} from "@/lib/checkpoints/contract";
import { buttonClass, ErrorText, inputClass } from "./shared";

const TYPE_LABELS: Record<DeciderCheckpointType, string> = {
  plan_approval: "1 · Plan",
  tool_execution: "2 · Tool execution",
  subagent_spawn: "3 · Sub-agent",
  critical_decision: "4 · Critical decision",
  final_review: "5 · Final review",
};
const RULE_LABELS: Record<DeciderRule, string> = {
  owner: "Run's owner may decide",
  four_eyes: "Four eyes: another reviewer",
};

type Rules = { safety_level: DeciderSafetyLevel; checkpoint_type: DeciderCheckpointType; decider: DeciderRule }[];

/**
 * Separation of duties: for each safety level and checkpoint of an autonomous run (and the plan
 * of a research run, which has a level too), whether the
 * run's owner may decide it, or a reviewer who is not the owner must. Every door (inbox, run page,
 * MCP, the run's resume endpoint) follows it; decisions already recorded stand.
 */
export function DeciderPolicyEditor() {
  const queryClient = useQueryClient();
  const policy = useQuery({
    queryKey: ["checkpoint-policy"],
    queryFn: () => apiFetch<{ policy: DeciderPolicyTable; defaults: DeciderPolicyTable }>("/api/checkpoint-policy"),
  });
  const [draft, setDraft] = useState<DeciderPolicyTable | null>(null);
  const put = useMutation({
    mutationFn: (rules: Rules) =>
      apiFetch("/api/checkpoint-policy", { method: "PUT", body: JSON.stringify({ rules }) }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ["checkpoint-policy"] });
      setDraft(null);
    },
  });

  if (policy.error) return <ErrorText error={policy.error} />;
  if (policy.isPending) return <p className="text-sm text-slate-500">Loading who decides…</p>;

  const saved = policy.data.policy;
  const table = draft ?? saved;
  const changed: Rules = DECIDER_SAFETY_LEVELS.flatMap((level) =>
    DECIDER_CHECKPOINT_TYPES.filter((type) => table[level][type] !== saved[level][type]).map((type) => ({
      safety_level: level,
      checkpoint_type: type,
      decider: table[level][type],
    })),
  );
  const set = (level: DeciderSafetyLevel, type: DeciderCheckpointType, rule: DeciderRule) =>
    setDraft({ ...table, [level]: { ...table[level], [type]: rule } });
  const toDefaults = () => setDraft(structuredClone(policy.data.defaults));

  return (
    <form
      aria-label="Who decides checkpoints"
      className="space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        if (changed.length > 0) put.mutate(changed);
      }}
    >
      <div className="relative overflow-x-auto">
        <table className="w-full text-left text-sm" aria-label="Who decides each checkpoint">
          <thead className="text-xs uppercase text-slate-500">
            <tr>
              <th className="py-2">Checkpoint</th>
              {DECIDER_SAFETY_LEVELS.map((level) => (
                <th key={level} className="capitalize">
                  {level}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {DECIDER_CHECKPOINT_TYPES.map((type) => (
              <tr key={type} className="border-t border-slate-200 dark:border-slate-800">
                <th scope="row" className="py-2 pr-3 font-normal whitespace-nowrap">
                  {TYPE_LABELS[type]}
                  {type === "plan_approval" ? (
                    <span className="block text-xs text-slate-500 dark:text-slate-400">goals and research plans</span>
                  ) : null}
                </th>
                {DECIDER_SAFETY_LEVELS.map((level) => (
                  <td key={level} className="py-1 pr-2">
                    <select
                      aria-label={`${TYPE_LABELS[type]} at the ${level} level`}
                      className={inputClass}
                      value={table[level][type]}
                      onChange={(e) => set(level, type, e.target.value as DeciderRule)}
                    >
                      {(Object.keys(RULE_LABELS) as DeciderRule[]).map((rule) => (
                        <option key={rule} value={rule}>
                          {RULE_LABELS[rule]}
                        </option>
                      ))}
                    </select>
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="text-xs text-slate-600 dark:text-slate-400">
        Four eyes: the decider holds the reviewer role and is not the run's owner (nor a key the owner minted).
        Reviewers may always decide; a checkpoint the safety level does not ask about is approved by the system.
      </p>
      <p className="text-xs text-slate-600 dark:text-slate-400">
        Research plans (deep research) follow the Plan row at the run's safety level: the level chosen when the run
        starts, else the research agent's default (high → strict, medium → balanced, low → permissive).
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <button type="submit" className={buttonClass} disabled={changed.length === 0 || put.isPending}>
          {put.isPending ? "Saving…" : "Save who decides"}
        </button>
        <button
          type="button"
          className="rounded-md border border-slate-300 px-3 py-2 text-sm dark:border-slate-700"
          onClick={toDefaults}
        >
          Back to the defaults
        </button>
        {put.isSuccess && draft === null && (
          <p role="status" className="text-sm text-emerald-700 dark:text-emerald-400">
            Saved.
          </p>
        )}
      </div>
      <ErrorText error={put.error} />
    </form>
  );
}
