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
import { EmptyState } from "@/components/ui/EmptyState";
import { Field } from "@/components/ui/Field";
import { Select } from "@/components/ui/Select";
import { type DataAccessScope, SEVERITIES, type Severity, type ToolCategory } from "@/lib/agents/contract";
import type { AgentCard } from "@/lib/experts/contract";
import { DeciderPolicyEditor } from "./DeciderPolicyEditor";
import { PrinciplesEditor } from "./PrinciplesEditor";
import { ErrorText } from "./shared";

interface Tool {
  name: string;
  description: string;
  category: ToolCategory;
  risk_level: Severity;
  data_access_scope: DataAccessScope;
  external_api: boolean;
  enabled: boolean;
}

type AgentTool = Tool & { granted: boolean };

export function AgentSettings() {
  return (
    <div className="space-y-10">
      <section aria-labelledby="tools-heading" className="space-y-3">
        <h2 id="tools-heading" className="text-lg font-medium">
          Tools
        </h2>
        <ToolsTable />
      </section>
      <section aria-labelledby="agent-tools-heading" className="space-y-3">
        <h2 id="agent-tools-heading" className="text-lg font-medium">
          Per-agent tools
        </h2>
        <AgentTools />
      </section>
      <section aria-labelledby="principles-heading" className="space-y-3">
        <h2 id="principles-heading" className="text-lg font-medium">
          Principles
        </h2>
        <PrinciplesEditor />
      </section>
      <section aria-labelledby="decider-heading" className="space-y-3">
        <h2 id="decider-heading" className="text-lg font-medium">
          Who decides checkpoints
        </h2>
        <DeciderPolicyEditor />
      </section>
    </div>
  );
}

function ToolsTable() {
  const tools = useQuery({
    queryKey: ["tools"],
    queryFn: () => apiFetch<{ items: Tool[] }>("/api/tools"),
  });
  if (tools.error) return <ErrorText error={tools.error} />;
  if (tools.isPending) return <p className="text-sm text-slate-500">Loading tools…</p>;
  if (tools.data.items.length === 0) return <EmptyState title="No tools" />;
  return (
    <DataTable aria-label="Tools">
      <DataTableHead>
        <tr>
          <DataTableHeader>Tool</DataTableHeader>
          <DataTableHeader>Category</DataTableHeader>
          <DataTableHeader>Access</DataTableHeader>
          <DataTableHeader>External</DataTableHeader>
          <DataTableHeader>Risk</DataTableHeader>
          <DataTableHeader>Enabled</DataTableHeader>
          <DataTableHeader>
            <span className="sr-only">Actions</span>
          </DataTableHeader>
        </tr>
      </DataTableHead>
      <DataTableBody>
        {tools.data.items.map((tool) => (
          <ToolRow key={`${tool.name}:${tool.risk_level}:${tool.enabled}`} tool={tool} />
        ))}
      </DataTableBody>
    </DataTable>
  );
}

function ToolRow({ tool }: { tool: Tool }) {
  const queryClient = useQueryClient();
  const [risk, setRisk] = useState<Severity>(tool.risk_level);
  const [enabled, setEnabled] = useState(tool.enabled);
  const changed = risk !== tool.risk_level || enabled !== tool.enabled;
  const save = useMutation({
    mutationFn: () =>
      apiFetch<{ tool: Tool }>(`/api/tools/${encodeURIComponent(tool.name)}`, {
        method: "PUT",
        body: JSON.stringify({ risk_level: risk, enabled }),
      }),
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: ["tools"] });
      queryClient.invalidateQueries({ queryKey: ["agent-tools"] });
    },
  });
  return (
    <DataTableRow className="align-top" data-testid={`tool-${tool.name}`}>
      <DataTableCell>
        <div className="font-mono">{tool.name}</div>
        <div className="text-xs text-slate-500">{tool.description}</div>
      </DataTableCell>
      <DataTableCell label="Category">{tool.category}</DataTableCell>
      <DataTableCell label="Access">{tool.data_access_scope}</DataTableCell>
      <DataTableCell label="External">{tool.external_api ? "yes" : "no"}</DataTableCell>
      <DataTableCell label="Risk">
        <Select aria-label={`Risk of ${tool.name}`} value={risk} onChange={(e) => setRisk(e.target.value as Severity)}>
          {SEVERITIES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </Select>
      </DataTableCell>
      <DataTableCell label="Enabled">
        <input
          type="checkbox"
          aria-label={`${tool.name} enabled`}
          checked={enabled}
          onChange={(e) => setEnabled(e.target.checked)}
        />
      </DataTableCell>
      <DataTableCell actions>
        <Button aria-label={`Save ${tool.name}`} disabled={!changed || save.isPending} onClick={() => save.mutate()}>
          {save.isPending ? "Saving…" : "Save"}
        </Button>
        <ErrorText error={save.error} />
      </DataTableCell>
    </DataTableRow>
  );
}

function AgentTools() {
  const queryClient = useQueryClient();
  const agents = useQuery({
    queryKey: ["agents"],
    queryFn: () => apiFetch<{ items: AgentCard[] }>("/api/agents"),
  });
  const [picked, setPicked] = useState<string | null>(null);
  const [shown, setShown] = useState<Record<string, boolean>>({});
  const agent = picked ?? agents.data?.items[0]?.slug ?? null;
  const tools = useQuery({
    queryKey: ["agent-tools", agent],
    queryFn: () => apiFetch<{ items: AgentTool[] }>(`/api/agents/${encodeURIComponent(agent ?? "")}/tools`),
    enabled: agent !== null,
  });
  const toggle = useMutation({
    mutationFn: ({ name, enabled }: { name: string; enabled: boolean }) =>
      apiFetch(`/api/agents/${encodeURIComponent(agent ?? "")}/tools/${encodeURIComponent(name)}`, {
        method: "PUT",
        body: JSON.stringify({ enabled }),
      }),
    // The box keeps the change it shows until the agent's tools are read back.
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: ["agent-tools", agent] });
      setShown({});
    },
  });

  if (agents.error) return <ErrorText error={agents.error} />;
  if (agents.isPending) return <p className="text-sm text-slate-500">Loading agents…</p>;
  if (agents.data.items.length === 0) return <EmptyState title="No agents yet" />;
  return (
    <div className="space-y-3">
      <Field label="Agent" className="sm:w-80">
        <Select
          value={agent ?? ""}
          onChange={(e) => {
            toggle.reset();
            setPicked(e.target.value);
          }}
        >
          {agents.data.items.map((a) => (
            <option key={a.id} value={a.slug}>
              {a.name}
            </option>
          ))}
        </Select>
      </Field>
      <ErrorText error={toggle.error} />
      {tools.error ? (
        <ErrorText error={tools.error} />
      ) : tools.isPending ? (
        <p className="text-sm text-slate-500">Loading the agent's tools…</p>
      ) : (
        <ul className="space-y-2" aria-label="The agent's tools">
          {tools.data.items.map((t) => (
            <li key={t.name} className="flex items-center gap-3 text-sm">
              <label className="flex items-center gap-2">
                <input
                  type="checkbox"
                  aria-label={`may use ${t.name}`}
                  checked={shown[t.name] ?? t.granted}
                  disabled={toggle.isPending || tools.isFetching}
                  onChange={(e) => {
                    const enabled = e.target.checked;
                    setShown((m) => ({ ...m, [t.name]: enabled }));
                    toggle.mutate({ name: t.name, enabled });
                  }}
                />
                <span>
                  may use <span className="font-mono">{t.name}</span>
                </span>
              </label>
              {!t.enabled && <span className="text-xs text-slate-500">(off for the whole tenant)</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
