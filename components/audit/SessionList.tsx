"use client";

import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { type FormEvent, useState } from "react";
import { Chip, RunStatusBadges } from "@/components/runs/Badges";
import { formatUsd, formatWhen } from "@/components/runs/format";
import type { AuditFilterOptions } from "./api";
import { ClassificationChip } from "./ClassificationChip";
import { formFilters, PagedList } from "./PagedList";
import { type AuditSessionItem, fetchAuditSessions, fetchSessionRuns, type SessionFilters } from "./phi-api";

const field =
  "w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-900";
const label = "block text-xs font-medium text-slate-600 dark:text-slate-400";
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
        <button
          type="button"
          aria-expanded={open}
          onClick={() => setOpen((v) => !v)}
          className="mt-2 rounded-md border border-slate-300 px-2 py-1 text-xs hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
        >
          {open ? "Hide its runs" : `Show its ${s.runCount === 1 ? "run" : `${s.runCount} runs`}`}
        </button>
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

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFilters(formFilters(event.currentTarget, ["agent", "from", "to", "has_phi", "has_errors"] as const));
  }

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
    <label className={label}>
      {text}
      <select name={name} className={field} defaultValue="">
        <option value="">Either</option>
        <option value="true">Yes</option>
        <option value="false">No</option>
      </select>
    </label>
  );

  return (
    <section aria-label="Sessions">
      <form
        onSubmit={submit}
        onReset={() => setFilters({})}
        aria-label="Filter sessions"
        className="mb-4 grid grid-cols-2 gap-3 rounded-lg border border-slate-200 p-3 sm:grid-cols-6 dark:border-slate-800"
      >
        <label className={`${label} col-span-2 sm:col-span-1`}>
          Agent
          <select name="agent" className={field} defaultValue="">
            <option value="">Any agent</option>
            {options.agents.map((a) => (
              <option key={a.id} value={a.slug}>
                {a.name}
              </option>
            ))}
          </select>
        </label>
        <label className={label}>
          Active from
          <input type="date" name="from" className={field} />
        </label>
        <label className={label}>
          Active until
          <input type="date" name="to" className={field} />
        </label>
        {yesNo("has_phi", "Touched PHI")}
        {yesNo("has_errors", "Had errors")}
        <div className="col-span-2 flex items-end gap-2 sm:col-span-1">
          <button
            type="submit"
            className="rounded-md bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700"
          >
            Apply
          </button>
          <button
            type="reset"
            className="rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
          >
            Clear
          </button>
        </div>
      </form>
      {body}
    </section>
  );
}
