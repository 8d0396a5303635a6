"use client";

import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { Download } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Chip, type Tone } from "@/components/runs/Badges";
import { formatWhen } from "@/components/runs/format";
import { Button, buttonVariants } from "@/components/ui/Button";
import { cn } from "@/components/ui/cn";
import { EmptyState } from "@/components/ui/EmptyState";
import { Input } from "@/components/ui/Input";
import { Select } from "@/components/ui/Select";
import {
  AUDIT_EXPORT_FORMATS,
  AUDIT_EXPORT_KINDS,
  type AuditExport,
  type AuditExportFormat,
  type AuditExportKind,
  type ExportRequest,
  exportFileUrl,
  fetchExports,
  requestExport,
} from "./exports-api";

const label = "block text-xs font-medium text-slate-600 dark:text-slate-400";

const KIND_LABELS: Record<AuditExportKind, string> = {
  trace: "Execution trace",
  decisions: "Decisions",
  cases: "Review cases",
};
const STATUS_TONES: Record<AuditExport["status"], Tone> = {
  pending: "grey",
  running: "blue",
  ready: "green",
  failed: "red",
};

const formatBytes = (n: number) =>
  n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1024 / 1024).toFixed(1)} MiB`;

function rangeText(range: AuditExport["range"]): string {
  const day = (iso: string | null) => (iso ? iso.slice(0, 10) : null);
  const from = day(range.from);
  const to = day(range.to);
  if (!from && !to) return "everything";
  return `${from ?? "the start"} – ${to ?? "now"}`;
}

function ExportItem({ x }: { x: AuditExport }) {
  const m = x.manifest;
  return (
    <li
      data-testid="audit-export"
      data-export-id={x.id}
      data-status={x.status}
      className="rounded-lg border border-slate-200 bg-white p-3 text-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex flex-wrap items-center gap-1.5">
        <Chip tone={STATUS_TONES[x.status]}>{x.status}</Chip>
        <span className="font-medium">{KIND_LABELS[x.kind]}</span>
        <Chip>{x.format.toUpperCase()}</Chip>
        <span className="text-xs text-slate-500 dark:text-slate-400">{rangeText(x.range)}</span>
      </div>
      <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
        Requested by {x.requestedBy.name ?? x.requestedBy.id} · {formatWhen(x.requestedAt)}
      </p>
      {x.status === "failed" && x.error && <p className="mt-1 text-xs text-red-700 dark:text-red-400">{x.error}</p>}
      {(x.status === "pending" || x.status === "running") && (
        <p className="mt-1 text-xs text-slate-500 dark:text-slate-400" role="status">
          Writing the file…
        </p>
      )}
      {m && (
        <>
          <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
            <dt className="text-slate-500 dark:text-slate-400">Rows</dt>
            <dd data-testid="manifest-rows">{m.rowCount.toLocaleString()}</dd>
            <dt className="text-slate-500 dark:text-slate-400">Size</dt>
            <dd>{formatBytes(m.byteSize)}</dd>
            <dt className="text-slate-500 dark:text-slate-400">SHA-256</dt>
            <dd className="font-mono break-all" data-testid="manifest-sha256">
              {m.sha256}
            </dd>
            <dt className="text-slate-500 dark:text-slate-400">Chain head</dt>
            <dd className="font-mono break-all" data-testid="manifest-chain-head">
              {m.chainHead ? `#${m.chainHead.seq} ${m.chainHead.hash}` : "no chained event yet"}
            </dd>
            <dt className="text-slate-500 dark:text-slate-400">Generator</dt>
            <dd>{m.generatorVersion}</dd>
            <dt className="text-slate-500 dark:text-slate-400">Completed</dt>
            <dd>{formatWhen(m.completedAt)}</dd>
          </dl>
          <a
            href={exportFileUrl(x.id)}
            download
            className={cn(buttonVariants({ variant: "outline", size: "sm" }), "mt-2 gap-1.5")}
          >
            <Download className="size-4" aria-hidden />
            Download {x.format.toUpperCase()}
          </a>
        </>
      )}
    </li>
  );
}

/** The export form and the tenant's exports; polls while one is being written. */
export function AuditExports() {
  const queryClient = useQueryClient();
  const [formError, setFormError] = useState<string | null>(null);
  const { data, error, isPending, fetchNextPage, hasNextPage, isFetchingNextPage } = useInfiniteQuery({
    queryKey: ["audit-exports"],
    queryFn: ({ pageParam }) => fetchExports(pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    refetchInterval: (query) =>
      query.state.data?.pages.some((p) => p.items.some((x) => x.status === "pending" || x.status === "running"))
        ? 1000
        : false,
  });
  const request = useMutation({
    mutationFn: requestExport,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["audit-exports"] }),
    onError: (e) => setFormError(e.message),
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const body: ExportRequest = {
      kind: String(form.get("kind")) as AuditExportKind,
      format: String(form.get("format")) as AuditExportFormat,
    };
    const from = String(form.get("from") ?? "");
    const to = String(form.get("to") ?? "");
    if (from) body.from = from;
    if (to) body.to = to;
    if (from && to && from > to) {
      setFormError("The start of the range is after its end.");
      return;
    }
    setFormError(null);
    request.mutate(body);
  }

  let list: React.ReactNode;
  if (isPending) list = <p className="text-sm text-slate-500">Loading exports…</p>;
  else if (error) list = <EmptyState title="Could not load the exports">{error.message}</EmptyState>;
  else {
    const items = data.pages.flatMap((p) => p.items);
    list =
      items.length === 0 ? (
        <EmptyState title="No export yet">
          Choose what to export above. The file is written in the background; its manifest (row count, SHA-256 and the
          chain head) shows here when it is ready.
        </EmptyState>
      ) : (
        <div className="space-y-3">
          <ul className="space-y-2" aria-label="Exports">
            {items.map((x) => (
              <ExportItem key={x.id} x={x} />
            ))}
          </ul>
          {hasNextPage && (
            <Button variant="outline" size="sm" onClick={() => void fetchNextPage()} disabled={isFetchingNextPage}>
              {isFetchingNextPage ? "Loading…" : "Load more exports"}
            </Button>
          )}
        </div>
      );
  }

  return (
    <section aria-label="Exports">
      <form
        onSubmit={submit}
        aria-label="Request an export"
        className="mb-4 grid grid-cols-2 gap-3 rounded-lg border border-slate-200 p-3 sm:grid-cols-5 dark:border-slate-800"
      >
        <label className={label}>
          What
          <Select name="kind" className="w-full px-2 py-1.5" defaultValue="trace">
            {AUDIT_EXPORT_KINDS.map((k) => (
              <option key={k} value={k}>
                {KIND_LABELS[k]}
              </option>
            ))}
          </Select>
        </label>
        <label className={label}>
          Format
          <Select name="format" className="w-full px-2 py-1.5" defaultValue="csv">
            {AUDIT_EXPORT_FORMATS.map((f) => (
              <option key={f} value={f}>
                {f.toUpperCase()}
              </option>
            ))}
          </Select>
        </label>
        <label className={label}>
          From
          <Input type="date" name="from" className="w-full px-2 py-1.5" />
        </label>
        <label className={label}>
          Until
          <Input type="date" name="to" className="w-full px-2 py-1.5" />
        </label>
        <div className="col-span-2 flex items-end sm:col-span-1">
          <Button type="submit" disabled={request.isPending} size="sm">
            {request.isPending ? "Requesting…" : "Export"}
          </Button>
        </div>
        <p className="col-span-2 text-xs text-slate-500 sm:col-span-5 dark:text-slate-400">
          Values are exported exactly as recorded, so the file matches its SHA-256. A spreadsheet may read a CSV value
          that starts with =, +, - or @ as a formula: import the file with its columns as text.
        </p>
        {formError && (
          <p role="alert" className="col-span-2 text-sm text-red-700 sm:col-span-5 dark:text-red-400">
            {formError}
          </p>
        )}
      </form>
      {list}
    </section>
  );
}
