"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { AlertTriangle, ShieldAlert } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { Chip } from "@/components/runs/Badges";
import { formatTokens, formatUsd, formatWhen, RUN_STATUS_LABELS } from "@/components/runs/format";
import { Button } from "@/components/ui/Button";
import { EmptyState } from "@/components/ui/EmptyState";
import { FilterField, FilterForm, filterControlClass, rangeMessage } from "@/components/ui/FilterForm";
import { Input } from "@/components/ui/Input";
import { Select } from "@/components/ui/Select";
import {
  AUDIT_RUN_STATUSES,
  type AuditFilterOptions,
  type AuditFilters,
  type AuditRunItem,
  fetchAuditRuns,
} from "./api";

const STATUS_TONES = {
  running: "blue",
  interrupted: "amber",
  completed: "green",
  failed: "red",
  cancelled: "grey",
} as const;

function RunRow({ item }: { item: AuditRunItem }) {
  return (
    <li>
      <Link
        href={`/audit/runs/${item.id}`}
        data-testid="audit-run-row"
        data-run-id={item.id}
        className="block rounded-lg border border-slate-200 bg-white p-3 hover:border-brand-500 focus-visible:outline-2 focus-visible:outline-brand-500 dark:border-slate-800 dark:bg-slate-900"
      >
        <div className="mb-1 flex flex-wrap items-center gap-2">
          <Chip tone={STATUS_TONES[item.status]}>{RUN_STATUS_LABELS[item.status]}</Chip>
          <Chip>{item.workflow}</Chip>
          {item.violations > 0 && (
            <Chip tone="red" title="Constitutional validations that failed">
              <ShieldAlert aria-hidden className="h-3 w-3" />
              {item.violations} {item.violations === 1 ? "violation" : "violations"}
            </Chip>
          )}
          {item.phiAccesses > 0 && (
            <Chip tone="violet" title="Trace events that accessed protected health information">
              PHI × {item.phiAccesses}
            </Chip>
          )}
          {item.errors > 0 && (
            <Chip tone="amber">
              <AlertTriangle aria-hidden className="h-3 w-3" />
              {item.errors} {item.errors === 1 ? "error" : "errors"}
            </Chip>
          )}
        </div>
        <p className="line-clamp-2 text-sm font-medium [overflow-wrap:anywhere]">
          {item.title ?? <span className="text-slate-500 italic">Private consultation</span>}
        </p>
        <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
          {formatWhen(item.createdAt)} · {item.user.name ?? item.user.id}
          {item.agent ? ` · ${item.agent.name}` : ""} · {item.events} events · {formatTokens(item.tokens)} tokens ·{" "}
          {formatUsd(item.costUsd)}
        </p>
      </Link>
    </li>
  );
}

/** The filters as a form: applied together on submit, so a half-typed date never queries. */
function RunFilters({ options, onApply }: { options: AuditFilterOptions; onApply: (filters: AuditFilters) => void }) {
  return (
    <FilterForm
      label="Filter runs"
      keys={["agent", "user", "status", "from", "to", "has_violations", "has_phi"] as const}
      onFilters={onApply}
      ranges={[{ from: "from", to: "to", message: rangeMessage("From", "To") }]}
      className="sm:grid-cols-4"
      actionsClassName="col-span-1"
    >
      <FilterField label="Agent">
        <Select name="agent" className={filterControlClass} defaultValue="">
          <option value="">Any agent</option>
          {options.agents.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name}
            </option>
          ))}
        </Select>
      </FilterField>
      <FilterField label="User">
        <Select name="user" className={filterControlClass} defaultValue="">
          <option value="">Anyone</option>
          {options.people.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name} ({p.role})
            </option>
          ))}
        </Select>
      </FilterField>
      <FilterField label="Status">
        <Select name="status" className={filterControlClass} defaultValue="">
          <option value="">Any status</option>
          {AUDIT_RUN_STATUSES.map((s) => (
            <option key={s} value={s}>
              {RUN_STATUS_LABELS[s]}
            </option>
          ))}
        </Select>
      </FilterField>
      <FilterField label="Violations">
        <Select name="has_violations" className={filterControlClass} defaultValue="">
          <option value="">Either</option>
          <option value="true">With violations</option>
          <option value="false">Without</option>
        </Select>
      </FilterField>
      <FilterField label="From">
        <Input type="date" name="from" className={filterControlClass} />
      </FilterField>
      <FilterField label="To">
        <Input type="date" name="to" className={filterControlClass} />
      </FilterField>
      <FilterField label="PHI access">
        <Select name="has_phi" className={filterControlClass} defaultValue="">
          <option value="">Either</option>
          <option value="true">Accessed PHI</option>
          <option value="false">No PHI</option>
        </Select>
      </FilterField>
    </FilterForm>
  );
}

/** Every run of the tenant, newest first, narrowed by the filters, a page at a time. */
export function AuditRunList({ options }: { options: AuditFilterOptions }) {
  const [filters, setFilters] = useState<AuditFilters>({});
  const filtered = Object.keys(filters).length > 0;
  const { data, error, isPending, fetchNextPage, hasNextPage, isFetchingNextPage } = useInfiniteQuery({
    queryKey: ["audit-runs", filters],
    queryFn: ({ pageParam }) => fetchAuditRuns(filters, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
  });

  let body: React.ReactNode;
  if (isPending) body = <p className="text-sm text-slate-500">Loading runs…</p>;
  else if (error) body = <EmptyState title="Could not load the runs">{error.message}</EmptyState>;
  else {
    const items = data.pages.flatMap((p) => p.items);
    body =
      items.length === 0 ? (
        <EmptyState title={filtered ? "No run matches these filters" : "No runs yet"}>
          {filtered
            ? "Widen the date range or clear a filter."
            : "Runs appear here as soon as someone chats with an expert or starts an autonomous run."}
        </EmptyState>
      ) : (
        <div className="space-y-3">
          <ul className="space-y-2" aria-label="Audited runs">
            {items.map((item) => (
              <RunRow key={item.id} item={item} />
            ))}
          </ul>
          {hasNextPage && (
            <Button variant="outline" size="sm" onClick={() => void fetchNextPage()} disabled={isFetchingNextPage}>
              {isFetchingNextPage ? "Loading…" : "Load more"}
            </Button>
          )}
        </div>
      );
  }
  return (
    <section aria-labelledby="audit-runs-heading">
      <h2 id="audit-runs-heading" className="mb-3 text-lg font-semibold">
        Sessions and runs
      </h2>
      <RunFilters options={options} onApply={setFilters} />
      {body}
    </section>
  );
}
