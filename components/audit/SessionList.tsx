"use client";

import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { Chip, RunStatusBadges } from "@/components/runs/Badges";
import { formatUsd, formatWhen } from "@/components/runs/format";
import { Button } from "@/components/ui/Button";
import { FilterField, FilterForm, filterControlClass, rangeMessage } from "@/components/ui/FilterForm";
import { Input } from "@/components/ui/Input";
import { Select } from "@/components/ui/Select";
import type { AuditFilterOptions } from "./api";
import { ClassificationChip } from "./ClassificationChip";
import { PagedList } from "./PagedList";
import { type AuditSessionItem, fetchAuditSessions, fetchSessionRuns, type SessionFilters } from "./phi-api";

const link = "text-brand-700 underline dark:text-brand-100";

function SessionRuns({ sessionId }: { sessionId: string }) {
  const { data, error, isPending } = useQuery({
    queryKey: ["audit-session-runs", sessionId],
    queryFn: () => fetchSessionRuns(sessionId),
  });
  if (isPending) return <p className="mt-2 text-xs text-slate-500">Loading its runs…</p>;
  if (error)
    return <p className="mt-2 text-xs text-red-700 dark:text-red-300">Could not load its runs: {error.message}</p>;
  if (data.items.length === 0) return <p className="mt-2 text-xs text-slate-500">No run of this session is kept.</p>;
  return (
    <ul className="mt-2 space-y-1 border-l-2 border-slate-200 pl-3 dark:border-slate-700" aria-label="Its runs">
      {data.items.map((run) => (
        <li key={run.id} className="flex flex-wrap items-center gap-1.5 text-xs">
          <RunStatusBadges status={run.status} />
          <Link href={`/audit/runs/${run.id}`} className={`${link} [overflow-wrap:anywhere]`}>
            {run.title || `${run.workflow} run`}
          </Link>
          <span className="text-slate-500">{formatWhen(run.createdAt)}</span>
        </li>
      ))}
    </ul>
  );
}

function SessionRow({ s }: { s: AuditSessionItem }) {
  const [open, setOpen] = useState(false);
  return (
    <li
      data-testid="audit-session-row"
      className="rounded-lg border border-slate-200 bg-white p-3 text-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex flex-wrap items-center gap-1.5">
        <ClassificationChip value={s.classification} />
        {s.phiAccessCount > 0 && <Chip tone="red">{s.phiAccessCount} PHI accesses</Chip>}
        {s.errorCount > 0 && <Chip tone="amber">{s.errorCount} errors</Chip>}
        {s.agent && <Chip tone="violet">{s.agent.name}</Chip>}
      </div>
      <p className="mt-1 font-medium [overflow-wrap:anywhere]">
        {s.user ? (s.user.name ?? s.user.id) : "No run kept"} · {formatWhen(s.sessionStart)} –{" "}
        {formatWhen(s.sessionEnd)}
      </p>
      <dl className="mt-1 flex flex-wrap gap-x-4 gap-y-0.5 text-xs text-slate-600 dark:text-slate-400">
        <div>
          <dt className="inline">Events </dt>
          <dd className="inline font-medium">{s.eventCount}</dd>
        </div>
        <div>
          <dt className="inline">LLM calls </dt>
          <dd className="inline font-medium">{s.llmCalls}</dd>
        </div>
        <div>
          <dt className="inline">Tokens </dt>
          <dd className="inline font-medium">{s.totalTokens.toLocaleString()}</dd>
        </div>
        <div>
          <dt className="inline">Cost </dt>
          <dd className="inline font-medium">{formatUsd(s.totalCost)}</dd>
        </div>
        <div>
          <dt className="inline">Cache hits </dt>
          <dd className="inline font-medium">{s.cacheHits}</dd>
        </div>
      </dl>
      <p className="mt-1 text-xs text-slate-500 [overflow-wrap:anywhere]">
        Session <code className="break-all">{s.sessionId}</code>
      </p>
      {s.runCount > 0 && (
        <Button variant="outline" size="xs" aria-expanded={open} onClick={() => setOpen((v) => !v)} className="mt-2">
          {open ? "Hide its runs" : `Show its ${s.runCount === 1 ? "run" : `${s.runCount} runs`}`}
        </Button>
      )}
      {open && <SessionRuns sessionId={s.sessionId} />}
    </li>
  );
}

/** Every session of the tenant as its trace sums it, by agent, date, PHI and errors, a page at a time. */
export function SessionList({ options }: { options: AuditFilterOptions }) {
  const [filters, setFilters] = useState<SessionFilters>({});
  const query = useInfiniteQuery({
    queryKey: ["audit-sessions", filters],
    queryFn: ({ pageParam }) => fetchAuditSessions(filters, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
  });

  const body = (
    <PagedList
      query={query}
      filtered={Object.keys(filters).length > 0}
      words={{
        loading: "Loading sessions…",
        failed: "Could not load the sessions",
        empty: "No session recorded",
        noMatch: "No session matches these filters.",
        hint: "Sessions appear here once people consult an expert or start a run.",
        label: "Sessions",
        more: "Load more sessions",
      }}
      render={(s) => <SessionRow key={s.sessionId} s={s} />}
    />
  );

  const yesNo = (name: string, text: string) => (
    <FilterField label={text}>
      <Select name={name} className={filterControlClass} defaultValue="">
        <option value="">Either</option>
        <option value="true">Yes</option>
        <option value="false">No</option>
      </Select>
    </FilterField>
  );

  return (
    <section aria-label="Sessions">
      <FilterForm
        label="Filter sessions"
        keys={["agent", "from", "to", "has_phi", "has_errors"] as const}
        onFilters={setFilters}
        ranges={[{ from: "from", to: "to", message: rangeMessage("Active from", "Active until") }]}
        className="sm:grid-cols-6"
      >
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
        <FilterField label="Active from">
          <Input type="date" name="from" className={filterControlClass} />
        </FilterField>
        <FilterField label="Active until">
          <Input type="date" name="to" className={filterControlClass} />
        </FilterField>
        {yesNo("has_phi", "Touched PHI")}
        {yesNo("has_errors", "Had errors")}
      </FilterForm>
      {body}
    </section>
  );
}
