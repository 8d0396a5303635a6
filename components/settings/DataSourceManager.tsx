"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { CheckCircle2, CircleAlert, Database, LoaderCircle } from "lucide-react";
import Link from "next/link";
import { type FormEvent, useState } from "react";
import { toast } from "sonner";
import { apiFetch } from "@/components/ui/api";
import { Button } from "@/components/ui/Button";
import { ConfirmButton } from "@/components/ui/ConfirmButton";
import { EmptyState } from "@/components/ui/EmptyState";
import { Field } from "@/components/ui/Field";
import { fieldErrors } from "@/components/ui/field-errors";
import { Input } from "@/components/ui/Input";
import { Select } from "@/components/ui/Select";
import {
  type DataSourceKind,
  type DataSourceSummary,
  type DataSourceTestResult,
  DEFAULT_ROW_LIMIT,
  DEFAULT_STATEMENT_TIMEOUT_MS,
} from "@/lib/datasources/contract";
import { SourceRiskControl } from "./SourceRiskControl";
import { ErrorText } from "./shared";

const KIND_LABELS: Record<DataSourceKind, string> = {
  postgres: "PostgreSQL",
  mysql: "MySQL / MariaDB",
  warehouse: "Demo warehouse (embedded)",
};

const PLACEHOLDERS: Record<DataSourceKind, string> = {
  postgres: "postgres://analyst:password@db.example.com:5432/sales",
  mysql: "mysql://analyst:password@db.example.com:3306/sales",
  warehouse: "",
};

const QUERY_KEY = ["data-sources"];

export function DataSourceManager() {
  const sources = useQuery({
    queryKey: QUERY_KEY,
    queryFn: () => apiFetch<{ items: DataSourceSummary[] }>("/api/datasources"),
  });
  return (
    <div className="space-y-8">
      <AddSourceForm />
      {sources.error ? (
        <p role="alert" className="text-sm text-red-600">
          {sources.error.message}
        </p>
      ) : sources.isPending ? (
        <p className="text-sm text-slate-500">Loading data sources…</p>
      ) : sources.data.items.length === 0 ? (
        <EmptyState title="No data sources yet">
          Add a database above: the Data Analyst (SQL) answers questions from the schemas you allow. Use a role that can
          only read.
        </EmptyState>
      ) : (
        <ul className="space-y-3" aria-label="Data sources">
          {sources.data.items.map((source) => (
            <SourceCard key={source.id} source={source} />
          ))}
        </ul>
      )}
    </div>
  );
}

function AddSourceForm() {
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [kind, setKind] = useState<DataSourceKind>("postgres");
  const [connectionString, setConnectionString] = useState("");
  const [schemas, setSchemas] = useState("public");
  const [rowLimit, setRowLimit] = useState(String(DEFAULT_ROW_LIMIT));
  const [timeout, setTimeoutMs] = useState(String(DEFAULT_STATEMENT_TIMEOUT_MS));

  const create = useMutation({
    mutationFn: () =>
      apiFetch<{ source: DataSourceSummary }>("/api/datasources", {
        method: "POST",
        body: JSON.stringify({
          name,
          kind,
          ...(kind === "warehouse" ? {} : { connectionString }),
          allowedSchemas: schemas
            .split(/[\s,]+/)
            .map((s) => s.trim())
            .filter(Boolean),
          rowLimit: Number(rowLimit),
          statementTimeoutMs: Number(timeout),
        }),
      }),
    onSuccess: ({ source }) => {
      toast.success(`Added “${source.name}”. Test it to check it is read-only.`);
      setName("");
      setConnectionString("");
      queryClient.invalidateQueries({ queryKey: QUERY_KEY });
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate();
  }
  // The server's refusal, each under its field (a connection string says what is wrong with it).
  const problems = fieldErrors(create.error, [
    "name",
    "kind",
    "connectionString",
    "allowedSchemas",
    "rowLimit",
    "statementTimeoutMs",
  ]);

  return (
    <form
      onSubmit={submit}
      aria-label="Add data source"
      className="grid gap-3 rounded-xl border border-slate-200 p-4 sm:grid-cols-2 dark:border-slate-800"
    >
      <Field label="Name" error={problems.fields.name}>
        <Input
          value={name}
          onChange={(e) => setName(e.target.value)}
          required
          maxLength={100}
          placeholder="e.g. Sales replica"
        />
      </Field>
      <Field label="Kind" error={problems.fields.kind}>
        <Select value={kind} onChange={(e) => setKind(e.target.value as DataSourceKind)}>
          {(Object.keys(KIND_LABELS) as DataSourceKind[]).map((k) => (
            <option key={k} value={k}>
              {KIND_LABELS[k]}
            </option>
          ))}
        </Select>
      </Field>
      {kind !== "warehouse" && (
        <Field
          label="Connection string"
          className="sm:col-span-2"
          description="Stored encrypted; only host, port and database are shown again."
          error={problems.fields.connectionString}
        >
          <Input
            className="font-mono"
            type="password"
            autoComplete="off"
            value={connectionString}
            onChange={(e) => setConnectionString(e.target.value)}
            required
            maxLength={2000}
            placeholder={PLACEHOLDERS[kind]}
          />
        </Field>
      )}
      <Field
        label="Allowed schemas"
        className="sm:col-span-2"
        description={`Comma-separated${kind === "mysql" ? " (databases, on MySQL)" : ""}. The analyst sees nothing else.`}
        error={problems.fields.allowedSchemas}
      >
        <Input
          value={schemas}
          onChange={(e) => setSchemas(e.target.value)}
          required
          placeholder={kind === "warehouse" ? "northwind, chinook, pagila" : "public"}
        />
      </Field>
      <Field label="Row limit" error={problems.fields.rowLimit}>
        <Input
          type="number"
          min={1}
          max={100000}
          value={rowLimit}
          onChange={(e) => setRowLimit(e.target.value)}
          required
        />
      </Field>
      <Field label="Statement timeout (ms)" error={problems.fields.statementTimeoutMs}>
        <Input
          type="number"
          min={100}
          max={600000}
          value={timeout}
          onChange={(e) => setTimeoutMs(e.target.value)}
          required
        />
      </Field>
      <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? "Adding…" : "Add data source"}
        </Button>
        {problems.general && (
          <p role="alert" className="text-sm text-red-600 dark:text-red-400">
            {problems.general}
          </p>
        )}
      </div>
    </form>
  );
}

function SourceCard({ source }: { source: DataSourceSummary }) {
  const queryClient = useQueryClient();
  const test = useMutation({
    mutationFn: () =>
      apiFetch<{ result: DataSourceTestResult }>(`/api/datasources/${source.id}/test`, { method: "POST", body: "{}" }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: QUERY_KEY }),
  });
  const remove = useMutation({
    mutationFn: () => apiFetch(`/api/datasources/${source.id}`, { method: "DELETE" }),
    onSuccess: () => {
      toast.success(`Removed “${source.name}”.`);
      queryClient.invalidateQueries({ queryKey: QUERY_KEY });
    },
  });
  // The tenant's default for the Data Analyst: conversations that picked no source ask it.
  const makeDefault = useMutation({
    mutationFn: (isDefault: boolean) =>
      apiFetch(`/api/datasources/${source.id}`, { method: "PUT", body: JSON.stringify({ isDefault }) }),
    onSettled: () => {
      queryClient.invalidateQueries({ queryKey: QUERY_KEY });
      queryClient.invalidateQueries({ queryKey: ["datasources", "choices"] });
    },
  });
  const result = test.data?.result ?? source.lastTestResult;

  return (
    <li className="rounded-xl border border-slate-200 p-4 dark:border-slate-800" aria-label={source.name}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 className="flex items-center gap-2 font-medium">
            <Database className="size-4 shrink-0 text-slate-500" aria-hidden />
            <Link
              href={`/settings/data-sources/${source.id}`}
              className="truncate text-brand-700 underline-offset-2 hover:underline dark:text-brand-100"
            >
              {source.name}
            </Link>
            {source.isDefault && (
              <span className="rounded-full bg-brand-50 px-2 py-0.5 text-xs text-brand-700 dark:bg-brand-900 dark:text-brand-100">
                Default
              </span>
            )}
          </h2>
          <p className="mt-1 break-all text-sm text-slate-600 dark:text-slate-400">
            {KIND_LABELS[source.kind]} · <span className="font-mono">{source.target}</span>
          </p>
          <p className="mt-1 text-xs text-slate-500">
            Schemas {source.allowedSchemas.join(", ")} · at most {source.rowLimit.toLocaleString()} rows ·{" "}
            {source.statementTimeoutMs.toLocaleString()} ms timeout
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
          <label className="flex items-center gap-1.5 text-sm">
            <input
              type="checkbox"
              checked={source.isDefault}
              disabled={makeDefault.isPending || (!source.enabled && !source.isDefault)}
              onChange={(e) => makeDefault.mutate(e.target.checked)}
            />
            Default for the Data Analyst
          </label>
          <Button variant="outline" size="sm" disabled={test.isPending} onClick={() => test.mutate()}>
            {test.isPending ? (
              <span className="flex items-center gap-1">
                <LoaderCircle className="size-4 animate-spin" aria-hidden /> Testing…
              </span>
            ) : (
              "Test"
            )}
          </Button>
          <ConfirmButton
            label="Remove"
            ariaLabel={`Remove ${source.name}`}
            question={`Remove “${source.name}”? The analyst stops using it at once.`}
            confirmLabel="Remove source"
            disabled={remove.isPending}
            onConfirm={() => remove.mutate()}
          />
        </div>
      </div>
      <ErrorText error={test.error ?? remove.error ?? makeDefault.error} />
      <TestOutcome result={result} testedAt={source.lastTestedAt} />
      <SourceRiskControl source={source} queryKey={QUERY_KEY} />
    </li>
  );
}

function TestOutcome({ result, testedAt }: { result: DataSourceTestResult | null; testedAt: string | null }) {
  if (!result) return <p className="mt-3 text-xs text-slate-500">Not tested yet.</p>;
  if (!result.reachable) {
    return (
      <p className="mt-3 flex items-start gap-2 text-sm text-red-600" data-testid="test-outcome">
        <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
        <span className="break-words">Unreachable: {result.error}</span>
      </p>
    );
  }
  const readOnly = result.readOnly.role && result.readOnly.session;
  return (
    <div className="mt-3 space-y-1 text-sm" data-testid="test-outcome">
      <p className={`flex items-start gap-2 ${readOnly ? "text-emerald-700 dark:text-emerald-400" : "text-amber-700"}`}>
        {readOnly ? (
          <CheckCircle2 className="mt-0.5 size-4 shrink-0" aria-hidden />
        ) : (
          <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
        )}
        <span>
          {result.serverVersion} —{" "}
          {readOnly ? "read-only role" : "the role can write; queries still run read-only, but grant it SELECT only"}
        </span>
      </p>
      {!readOnly && result.readOnly.writable.length > 0 && (
        <p className="break-words text-xs text-slate-500">Writable: {result.readOnly.writable.join("; ")}</p>
      )}
      <p className="text-xs text-slate-500">
        Schemas found: {result.schemasFound.join(", ") || "none"}
        {result.missingSchemas.length > 0 && ` · missing: ${result.missingSchemas.join(", ")}`}
        {testedAt && ` · tested ${new Date(testedAt).toLocaleString()}`}
      </p>
    </div>
  );
}
