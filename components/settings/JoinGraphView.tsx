"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { LoaderCircle, RefreshCw } from "lucide-react";
import { type ReactNode, useCallback, useMemo, useState } from "react";
import { toast } from "sonner";
import { apiFetch } from "@/components/ui/api";
import { Button } from "@/components/ui/Button";
import { EmptyState } from "@/components/ui/EmptyState";
import { Input } from "@/components/ui/Input";
import type { JoinGraphVersionView } from "@/lib/datasources/contract";
import type { JoinGraph, JoinRelationship } from "@/lib/joingraph/contract";
import { IssueList, Pager, sourceKeys } from "./data-source-parts";
import { ErrorText } from "./shared";

const PAGE = 25;

/** `schema.table` for a graph key (keys are bare names unless two schemas share one). */
function qualified(graph: JoinGraph, key: string): string {
  const table = graph.tables[key];
  return table && !key.includes(".") ? `${table.schema}.${key}` : key;
}

export function useJoinGraph(sourceId: string, version: number | null) {
  return useQuery({
    queryKey: sourceKeys.graph(sourceId, version),
    queryFn: () =>
      apiFetch<JoinGraphVersionView>(
        `/api/datasources/${sourceId}/join-graph${version === null ? "" : `?version=${version}`}`,
      ),
    // The first read of a source introspects it; later reads are the stored version.
    staleTime: 60_000,
  });
}

/** Refreshes the graph from the source: a new version only if the schema changed. */
export function useRefreshJoinGraph(sourceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiFetch<JoinGraphVersionView>(`/api/datasources/${sourceId}/join-graph/refresh`, {
        method: "POST",
        body: "{}",
      }),
    onSuccess: (graph) => {
      queryClient.setQueryData(sourceKeys.graph(sourceId, null), graph);
      queryClient.invalidateQueries({ queryKey: sourceKeys.versions(sourceId) });
      toast.success(`Read the source again: version ${graph.version}.`);
    },
  });
}

export function JoinGraphView({
  sourceId,
  warehouse,
  version,
  onCurrent,
}: {
  sourceId: string;
  warehouse: boolean;
  version: number | null;
  onCurrent: () => void;
}) {
  const graph = useJoinGraph(sourceId, version);
  const refresh = useRefreshJoinGraph(sourceId);

  if (graph.isPending) {
    return (
      <p className="flex items-center gap-2 text-sm text-slate-500" role="status">
        <LoaderCircle className="size-4 animate-spin" aria-hidden />
        Reading the source's schema…
        {warehouse ? " The first read of the demo warehouse loads its sample data and can take a minute." : ""}
      </p>
    );
  }
  if (graph.error) {
    return (
      <EmptyState title="The join graph could not be read">
        <p>{graph.error.message}</p>
        {version !== null && (
          <Button variant="outline" size="sm" className="mt-3" onClick={onCurrent}>
            Show the current version
          </Button>
        )}
      </EmptyState>
    );
  }
  const view = graph.data;
  return (
    <div className="space-y-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="graph-version">
          <span className="font-medium text-slate-900 dark:text-slate-100">Version {view.version}</span>
          {version !== null ? " (an earlier version)" : " (current)"} · {Object.keys(view.graph.tables).length} tables ·{" "}
          {view.graph.relationships.length} relationships · by {view.createdBy},{" "}
          {new Date(view.createdAt).toLocaleString()}
        </p>
        <div className="flex flex-wrap gap-2">
          {version !== null ? (
            <Button variant="outline" size="sm" onClick={onCurrent}>
              Show the current version
            </Button>
          ) : (
            <Button variant="outline" size="sm" disabled={refresh.isPending} onClick={() => refresh.mutate()}>
              <span className="flex items-center gap-1">
                <RefreshCw className={`size-4 ${refresh.isPending ? "animate-spin" : ""}`} aria-hidden />
                {refresh.isPending ? "Refreshing…" : "Refresh from source"}
              </span>
            </Button>
          )}
        </div>
      </div>
      <ErrorText error={refresh.error} />
      <IssueList title="Overrides that did not apply" issues={view.problems} tone="warning" />
      <TableList graph={view.graph} />
      <RelationshipList graph={view.graph} />
    </div>
  );
}

/** A heading, a filter box, a table of the matching items a page at a time, and its pager. */
function FilteredTable<T>({
  id,
  title,
  placeholder,
  items,
  matches,
  empty,
  noMatch,
  columns,
  row,
}: {
  id: string;
  title: string;
  placeholder: string;
  items: readonly T[];
  /** Whether an item matches the filter, given in lower case. */
  matches: (item: T, needle: string) => boolean;
  empty: string;
  noMatch: string;
  columns: readonly { label: string; right?: boolean }[];
  row: (item: T) => ReactNode;
}) {
  const [filter, setFilter] = useState("");
  const [page, setPage] = useState(0);
  const rows = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    return needle ? items.filter((item) => matches(item, needle)) : items;
  }, [items, matches, filter]);
  const pages = Math.max(1, Math.ceil(rows.length / PAGE));
  const shown = rows.slice(page * PAGE, page * PAGE + PAGE);
  return (
    <section aria-labelledby={id} className="space-y-3">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h2 id={id} className="text-lg font-medium">
          {title}
        </h2>
        <label className="flex flex-col gap-1 text-sm">
          Filter {title.toLowerCase()}
          <Input
            type="search"
            value={filter}
            placeholder={placeholder}
            onChange={(e) => {
              setFilter(e.target.value);
              setPage(0);
            }}
          />
        </label>
      </div>
      {rows.length === 0 ? (
        <p className="text-sm text-slate-500">{filter ? noMatch : empty}</p>
      ) : (
        <div className="overflow-x-auto rounded-xl border border-slate-200 dark:border-slate-800">
          <table className="w-full text-left text-sm" aria-label={title}>
            <thead className="bg-slate-50 text-xs text-slate-600 uppercase dark:bg-slate-900 dark:text-slate-400">
              <tr>
                {columns.map((c) => (
                  <th key={c.label} scope="col" className={`px-3 py-2${c.right ? " text-right" : ""}`}>
                    {c.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>{shown.map(row)}</tbody>
          </table>
        </div>
      )}
      <Pager page={Math.min(page, pages - 1)} pages={pages} onPage={setPage} label={`${title} pages`} />
    </section>
  );
}

type TableRow = JoinGraph["tables"][string] & { key: string };

function TableList({ graph }: { graph: JoinGraph }) {
  const items = useMemo(
    () =>
      Object.entries(graph.tables)
        .map(([key, t]): TableRow => ({ key, ...t }))
        .sort((a, b) => `${a.schema}.${a.name}`.localeCompare(`${b.schema}.${b.name}`)),
    [graph],
  );
  return (
    <FilteredTable
      id="graph-tables"
      title="Tables"
      placeholder="name, schema or role"
      items={items}
      matches={tableMatches}
      empty="The source has no tables in its allowed schemas."
      noMatch="No table matches the filter."
      columns={[
        { label: "Schema" },
        { label: "Name" },
        { label: "Role" },
        { label: "Rows (est.)", right: true },
        { label: "Columns", right: true },
      ]}
      row={(t) => (
        <tr key={t.key} className="border-t border-slate-100 dark:border-slate-800">
          <td className="px-3 py-2 text-slate-600 dark:text-slate-400">{t.schema}</td>
          <td className="px-3 py-2 font-mono">{t.name}</td>
          <td className="px-3 py-2">{t.role ?? <span className="text-slate-400">—</span>}</td>
          <td className="px-3 py-2 text-right tabular-nums">
            {t.row_estimate === null ? "—" : Math.max(0, Math.round(t.row_estimate)).toLocaleString()}
          </td>
          <td className="px-3 py-2 text-right tabular-nums">{t.columns.length}</td>
        </tr>
      )}
    />
  );
}

const tableMatches = (t: TableRow, needle: string) =>
  `${t.schema}.${t.name}`.toLowerCase().includes(needle) || (t.role ?? "").toLowerCase().includes(needle);

function relationshipText(graph: JoinGraph, r: JoinRelationship): string {
  return `${qualified(graph, r.from_table)}.${r.from_column} ${qualified(graph, r.to_table)}.${r.to_column} ${r.source} ${r.cardinality}`;
}

function RelationshipList({ graph }: { graph: JoinGraph }) {
  const matches = useCallback(
    (r: JoinRelationship, needle: string) => relationshipText(graph, r).toLowerCase().includes(needle),
    [graph],
  );
  return (
    <FilteredTable
      id="graph-relationships"
      title="Relationships"
      placeholder="table, column, fk, manual…"
      items={graph.relationships}
      matches={matches}
      empty="No relationships: add them as overrides if the database declares no foreign keys."
      noMatch="No relationship matches the filter."
      columns={[
        { label: "From" },
        { label: "To" },
        { label: "Confidence" },
        { label: "Source" },
        { label: "Cardinality" },
      ]}
      row={(r) => (
        <tr key={r.id} className="border-t border-slate-100 dark:border-slate-800" data-testid="relationship">
          <td className="px-3 py-2 font-mono break-all">
            {qualified(graph, r.from_table)}.{r.from_column}
          </td>
          <td className="px-3 py-2 font-mono break-all">
            {qualified(graph, r.to_table)}.{r.to_column}
          </td>
          <td className="px-3 py-2">
            <span className="flex items-center gap-2">
              <span className="tabular-nums">{r.confidence.toFixed(2)}</span>
              <meter
                className="h-2 w-16"
                min={0}
                max={1}
                low={0.5}
                high={0.8}
                optimum={1}
                value={r.confidence}
                aria-label={`confidence ${r.confidence.toFixed(2)}`}
              />
            </span>
          </td>
          <td className="px-3 py-2">{r.source}</td>
          <td className="px-3 py-2 font-mono">{r.cardinality}</td>
        </tr>
      )}
    />
  );
}
