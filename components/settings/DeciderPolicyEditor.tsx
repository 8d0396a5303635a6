"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { apiFetch } from "@/components/ui/api";
import { Button } from "@/components/ui/Button";
import {
  DataTable,
  DataTableBody,
  DataTableCell,
  DataTableHead,
  DataTableHeader,
  DataTableRow,
} from "@/components/ui/DataTable";
import { Select } from "@/components/ui/Select";
import {
  DECIDER_CHECKPOINT_TYPES,
  DECIDER_SAFETY_LEVELS,
  type DeciderCheckpointType,
  type DeciderPolicyTable,
  type DeciderRule,
  type DeciderSafetyLevel,
} from "@/lib/checkpoints/contract";
import { ErrorText } from "./shared";

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
      <DataTable aria-label="Who decides each checkpoint">
        <DataTableHead>
          <tr>
            <DataTableHeader>Checkpoint</DataTableHeader>
            {DECIDER_SAFETY_LEVELS.map((level) => (
              <DataTableHeader key={level} className="capitalize">
                {level}
              </DataTableHeader>
            ))}
          </tr>
        </DataTableHead>
        <DataTableBody>
          {DECIDER_CHECKPOINT_TYPES.map((type) => (
            <DataTableRow key={type}>
              <th
                scope="row"
                className="block pb-1 text-left font-medium md:table-cell md:py-2 md:pr-3 md:font-normal md:whitespace-nowrap"
              >
                {TYPE_LABELS[type]}
                {type === "plan_approval" ? (
                  <span className="block text-xs font-normal text-slate-500 dark:text-slate-400">
                    goals and research plans
                  </span>
                ) : null}
              </th>
              {DECIDER_SAFETY_LEVELS.map((level) => (
                <DataTableCell
                  key={level}
                  label={level}
                  className="flex items-center justify-between gap-2 capitalize md:table-cell md:py-1 md:pr-2 md:normal-case"
                >
                  <Select
                    aria-label={`${TYPE_LABELS[type]} at the ${level} level`}
                    className="min-w-0 normal-case"
                    value={table[level][type]}
                    onChange={(e) => set(level, type, e.target.value as DeciderRule)}
                  >
                    {(Object.keys(RULE_LABELS) as DeciderRule[]).map((rule) => (
                      <option key={rule} value={rule}>
                        {RULE_LABELS[rule]}
                      </option>
                    ))}
                  </Select>
                </DataTableCell>
              ))}
            </DataTableRow>
          ))}
        </DataTableBody>
      </DataTable>
      <p className="text-xs text-slate-600 dark:text-slate-400">
        Four eyes: the decider holds the reviewer role and is not the run's owner (nor a key the owner minted).
        Reviewers may always decide; a checkpoint the safety level does not ask about is approved by the system.
      </p>
      <p className="text-xs text-slate-600 dark:text-slate-400">
        Research plans (deep research) follow the Plan row at the run's safety level: the level chosen when the run
        starts, else the research agent's default (high → strict, medium → balanced, low → permissive).
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <Button type="submit" disabled={changed.length === 0 || put.isPending}>
          {put.isPending ? "Saving…" : "Save who decides"}
        </Button>
        <Button variant="outline" onClick={toDefaults}>
          Back to the defaults
        </Button>
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
