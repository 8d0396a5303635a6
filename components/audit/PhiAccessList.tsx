"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { Chip } from "@/components/runs/Badges";
import { formatWhen } from "@/components/runs/format";
import { FilterField, FilterForm, filterControlClass, rangeMessage } from "@/components/ui/FilterForm";
import { Input } from "@/components/ui/Input";
import { Select } from "@/components/ui/Select";
import type { AuditFilterOptions } from "./api";
import { ClassificationChip } from "./ClassificationChip";
import { PagedList } from "./PagedList";
import { fetchPhiAccess, type PhiAccessItem, type PhiFilters } from "./phi-api";

const link = "text-brand-700 underline dark:text-brand-100";

function PhiRow({ item }: { item: PhiAccessItem }) {
  const documents = new Set(item.documents.map((d) => `knowledge:${d.id}`));
  const otherFields = item.phiFields.filter((f) => !documents.has(f));
  return (
    <li
      data-testid="phi-access-row"
      className="rounded-lg border border-slate-200 bg-white p-3 text-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex flex-wrap items-center gap-1.5">
        <Chip tone="red">PHI accessed</Chip>
        <Chip>{item.eventType}</Chip>
        {item.nodeName && <Chip tone="violet">{item.nodeName}</Chip>}
        <ClassificationChip value={item.sessionClassification} prefix="session" />
      </div>
      <ul className="mt-1 space-y-0.5" aria-label="What it touched">
        {item.documents.map((d) => (
          <li key={d.id} className="[overflow-wrap:anywhere]">
            Document{" "}
            {d.title ? (
              <Link href={`/knowledge/${d.id}`} className={link}>
                {d.title}
              </Link>
            ) : (
              <span className="text-slate-500">{d.id} (deleted)</span>
            )}
          </li>
        ))}
        {otherFields.length > 0 && (
          <li className="[overflow-wrap:anywhere]">
            Fields: <code className="text-xs">{otherFields.join(", ")}</code>
          </li>
        )}
      </ul>
      <p className="mt-1 text-xs text-slate-500 [overflow-wrap:anywhere] dark:text-slate-400">
        {formatWhen(item.at)} · for {item.user ? (item.user.name ?? item.user.id) : "nobody named"}
        {item.actorId && item.actorId !== item.user?.id ? ` · by ${item.actorId}` : ""}
        {item.agent ? ` · ${item.agent.name ?? item.agent.id}` : ""}
        {item.runId && (
          <>
            {" · "}
            <Link href={`/audit/runs/${item.runId}`} className={link}>
              its run
            </Link>
          </>
        )}
        {item.sessionId && (
          <>
            {" · session "}
            <code className="break-all">{item.sessionId}</code>
          </>
        )}
      </p>
    </li>
  );
}

/** Every trace event that touched PHI, by person, agent and date, a page at a time. */
export function PhiAccessList({ options }: { options: AuditFilterOptions }) {
  const [filters, setFilters] = useState<PhiFilters>({});
  const query = useInfiniteQuery({
    queryKey: ["audit-phi", filters],
    queryFn: ({ pageParam }) => fetchPhiAccess(filters, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
  });

  const body = (
    <PagedList
      query={query}
      filtered={Object.keys(filters).length > 0}
      words={{
        loading: "Loading PHI accesses…",
        failed: "Could not load the PHI accesses",
        empty: "No PHI access recorded",
        noMatch: "No access matches these filters.",
        hint: "Mark knowledge documents that hold patient data as PHI; every retrieval that reads one appears here.",
        label: "PHI accesses",
        more: "Load more accesses",
      }}
      render={(item) => <PhiRow key={item.id} item={item} />}
    />
  );

  return (
    <section aria-label="PHI access">
      <FilterForm
        label="Filter PHI accesses"
        keys={["user", "agent", "from", "to"] as const}
        onFilters={setFilters}
        ranges={[{ from: "from", to: "to", message: rangeMessage("From", "Until") }]}
        className="sm:grid-cols-5"
      >
        <FilterField label="Person" className="col-span-2 sm:col-span-1">
          <Select name="user" className={filterControlClass} defaultValue="">
            <option value="">Anyone</option>
            {options.people.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name} ({p.role})
              </option>
            ))}
          </Select>
        </FilterField>
        <FilterField label="Agent" className="col-span-2 sm:col-span-1">
          <Select name="agent" className={filterControlClass} defaultValue="">
            <option value="">Any agent</option>
            {options.agents.map((a) => (
              <option key={a.id} value={a.slug}>
                {a.name}
              </option>
            ))}
          </Select>
        </FilterField>
        <FilterField label="From">
          <Input type="date" name="from" className={filterControlClass} />
        </FilterField>
        <FilterField label="Until">
          <Input type="date" name="to" className={filterControlClass} />
        </FilterField>
      </FilterForm>
      {body}
    </section>
  );
}
