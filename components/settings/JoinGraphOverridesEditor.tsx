"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { LoaderCircle } from "lucide-react";
import { toast } from "sonner";
import { apiFetch } from "@/components/ui/api";
import { Button } from "@/components/ui/Button";
import { EmptyState } from "@/components/ui/EmptyState";
import { Textarea } from "@/components/ui/Input";
import type { JoinGraphVersionSummary, JoinGraphVersionView } from "@/lib/datasources/contract";
import { IssueList, sourceKeys, useJsonDocument } from "./data-source-parts";
import { useJoinGraph, useRefreshJoinGraph } from "./JoinGraphView";
import { ErrorText } from "./shared";

const EXAMPLE = `{
  "add_relationships": [
    { "from_table": "orders", "from_column": "ship_via", "to_table": "shippers", "to_column": "shipper_id", "confidence": 1 }
  ],
  "remove_relationships": [{ "from_table": "a", "to_table": "b" }],
  "table_metadata": {
    "employee_territories": { "role": "assignment", "exclude_as_bridge_for": ["orders"], "note": "…" }
  }
}`;

/** The source's manual overrides (join_graph_manual.json) as JSON, with Save, Refresh and the version history. */
export function JoinGraphOverridesEditor({
  sourceId,
  onView,
}: {
  sourceId: string;
  onView: (version: number) => void;
}) {
  const graph = useJoinGraph(sourceId, null);
  return (
    <div className="space-y-8">
      {graph.isPending ? (
        <p className="flex items-center gap-2 text-sm text-slate-500" role="status">
          <LoaderCircle className="size-4 animate-spin" aria-hidden /> Loading the overrides…
        </p>
      ) : graph.error ? (
        <EmptyState title="The overrides could not be read">{graph.error.message}</EmptyState>
      ) : (
        <OverridesForm key={graph.data.version} sourceId={sourceId} current={graph.data} />
      )}
      <VersionHistory sourceId={sourceId} onView={onView} />
    </div>
  );
}

function OverridesForm({ sourceId, current }: { sourceId: string; current: JoinGraphVersionView }) {
  const queryClient = useQueryClient();
  const refresh = useRefreshJoinGraph(sourceId);
  const save = useMutation({
    mutationFn: (overrides: unknown) =>
      apiFetch<JoinGraphVersionView>(`/api/datasources/${sourceId}/join-graph/overrides`, {
        method: "PUT",
        body: JSON.stringify(overrides),
      }),
    onSuccess: (graph) => {
      queryClient.setQueryData(sourceKeys.graph(sourceId, null), graph);
      queryClient.invalidateQueries({ queryKey: sourceKeys.versions(sourceId) });
      toast.success(
        graph.version === current.version
          ? `Nothing changed: still version ${graph.version}.`
          : `Saved the overrides as version ${graph.version}.`,
      );
    },
  });

  const { text, setText, submit, refused } = useJsonDocument(current.overrides, save);
  return (
    <form onSubmit={submit} aria-label="Join graph overrides" className="space-y-3">
      <div>
        <h2 className="text-lg font-medium">Overrides</h2>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          The design's <code>join_graph_manual.json</code>: <code>add_relationships</code>,{" "}
          <code>remove_relationships</code> and <code>table_metadata</code> (role, category, description,{" "}
          <code>exclude_as_bridge_for</code>, note). Saving reads the source again and stores a new version when the
          graph or the overrides change. Now in force: version {current.version}.
        </p>
      </div>
      <label className="flex flex-col gap-1 text-sm">
        Overrides JSON
        <Textarea
          className="min-h-72 w-full p-3 font-mono text-xs"
          value={text}
          spellCheck={false}
          onChange={(e) => setText(e.target.value)}
          aria-invalid={refused.length > 0}
          aria-describedby="overrides-help"
        />
      </label>
      <details id="overrides-help" className="text-xs text-slate-500">
        <summary className="cursor-pointer">Example</summary>
        <pre className="mt-2 overflow-x-auto rounded bg-slate-50 p-2 dark:bg-slate-900">{EXAMPLE}</pre>
      </details>
      <IssueList title="The overrides were not saved" issues={refused} />
      <IssueList
        title={`Saved in version ${current.version}, but these did not apply`}
        issues={current.problems}
        tone="warning"
      />
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? "Saving…" : "Save overrides"}
        </Button>
        <Button variant="outline" size="sm" disabled={refresh.isPending} onClick={() => refresh.mutate()}>
          {refresh.isPending ? "Refreshing…" : "Refresh from source"}
        </Button>
        <ErrorText error={refresh.error} />
      </div>
    </form>
  );
}

function VersionHistory({ sourceId, onView }: { sourceId: string; onView: (version: number) => void }) {
  const versions = useQuery({
    queryKey: sourceKeys.versions(sourceId),
    queryFn: () => apiFetch<{ items: JoinGraphVersionSummary[] }>(`/api/datasources/${sourceId}/join-graph/versions`),
  });
  return (
    <section aria-labelledby="graph-history" className="space-y-3">
      <h2 id="graph-history" className="text-lg font-medium">
        Version history
      </h2>
      {versions.isPending ? (
        <p className="text-sm text-slate-500">Loading versions…</p>
      ) : versions.error ? (
        <p role="alert" className="text-sm text-red-600">
          {versions.error.message}
        </p>
      ) : versions.data.items.length === 0 ? (
        <p className="text-sm text-slate-500">No version yet: the first look at the join graph stores version 1.</p>
      ) : (
        <ul className="space-y-2" aria-label="Join graph versions">
          {versions.data.items.map((v) => (
            <li
              key={v.version}
              className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-slate-200 px-3 py-2 text-sm dark:border-slate-800"
            >
              <span className="min-w-0">
                <span className="font-medium">Version {v.version}</span>{" "}
                <span className="text-slate-600 dark:text-slate-400">
                  · {v.tables} tables · {v.relationships} relationships
                  {v.problems > 0 ? ` · ${v.problems} not applied` : ""} · {v.createdBy},{" "}
                  {new Date(v.createdAt).toLocaleString()}
                </span>
              </span>
              <Button variant="outline" size="sm" onClick={() => onView(v.version)}>
                View version {v.version}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
