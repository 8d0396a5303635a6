"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { Chip } from "@/components/runs/Badges";
import { formatElapsed, formatWhen } from "@/components/runs/format";
import { FilterField, FilterForm, filterControlClass, rangeMessage } from "@/components/ui/FilterForm";
import { Input } from "@/components/ui/Input";
import { Select } from "@/components/ui/Select";
import { type AuditDecision, type AuditFilterOptions, type DecisionFilters, fetchAuditDecisions } from "./api";
import { PagedList } from "./PagedList";

function DecisionRow({ d }: { d: AuditDecision }) {
  return (
    <li
      data-testid="audit-decision-row"
      className="rounded-lg border border-slate-200 bg-white p-3 text-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex flex-wrap items-center gap-1.5">
        <Chip tone={d.outcome === "approved" ? "green" : "red"}>{d.outcome}</Chip>
        {d.type === "decision_superseded" && <Chip tone="amber">superseded an earlier decision</Chip>}
        {d.modifications && <Chip tone="blue">modified</Chip>}
        <Chip>{d.adapter}</Chip>
      </div>
      <p className="mt-1 line-clamp-2 font-medium [overflow-wrap:anywhere]" title={d.title}>
        {d.title}
      </p>
      <p className="text-xs text-slate-500 dark:text-slate-400">
        {d.actor.name} ({d.actor.role}, {d.actor.principalRole}) · {formatWhen(d.decidedAt)} ·{" "}
        {formatElapsed(d.latencyMs)} after submission · <code className="break-all">{d.caseId}</code>
        {d.runId && (
          <>
            {" · "}
            <Link href={`/audit/runs/${d.runId}`} className="text-brand-700 underline dark:text-brand-100">
              its run
            </Link>
          </>
        )}
      </p>
      {d.notes && <p className="mt-1 text-xs [overflow-wrap:anywhere]">“{d.notes}”</p>}
    </li>
  );
}

/** Every human decision of the tenant, by operator and date, a page at a time. */
export function DecisionAudit({ people }: { people: AuditFilterOptions["people"] }) {
  const [filters, setFilters] = useState<DecisionFilters>({});
  const query = useInfiniteQuery({
    queryKey: ["audit-decisions", filters],
    queryFn: ({ pageParam }) => fetchAuditDecisions(filters, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
  });

  const body = (
    <PagedList
      query={query}
      filtered={Object.keys(filters).length > 0}
      words={{
        loading: "Loading decisions…",
        failed: "Could not load the decisions",
        empty: "No decision recorded",
        noMatch: "No decision matches these filters.",
        hint: "Decisions appear here once reviewers work the inbox.",
        label: "Decisions",
        more: "Load more decisions",
      }}
      render={(d) => <DecisionRow key={d.eventId} d={d} />}
    />
  );

  return (
    <section aria-label="Decisions">
      <FilterForm
        label="Filter decisions"
        keys={["operator", "from", "to"] as const}
        onFilters={setFilters}
        ranges={[{ from: "from", to: "to", message: rangeMessage("Decided from", "Decided until") }]}
        className="sm:grid-cols-4"
      >
        <FilterField label="Operator" className="col-span-2 sm:col-span-1">
          <Select name="operator" className={filterControlClass} defaultValue="">
            <option value="">Anyone</option>
            {people.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name} ({p.role})
              </option>
            ))}
          </Select>
        </FilterField>
        <FilterField label="Decided from">
          <Input type="date" name="from" className={filterControlClass} />
        </FilterField>
        <FilterField label="Decided until">
          <Input type="date" name="to" className={filterControlClass} />
        </FilterField>
      </FilterForm>
      {body}
    </section>
  );
}
