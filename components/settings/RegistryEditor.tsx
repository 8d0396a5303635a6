"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { LoaderCircle } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { apiFetch } from "@/components/ui/api";
import { Button } from "@/components/ui/Button";
import { EmptyState } from "@/components/ui/EmptyState";
import { Field } from "@/components/ui/Field";
import { Textarea } from "@/components/ui/Input";
import { Select } from "@/components/ui/Select";
import type { RegistryKind, SavedRegistry, SourceRegistriesView } from "@/lib/datasources/contract";
import { IssueList, sourceKeys, useJsonDocument } from "./data-source-parts";

const KIND_LABELS: Record<RegistryKind, string> = {
  domain: "Domain terms (domain_registry.json)",
  display: "Display attributes (display_attributes_registry.json)",
};

/** What an empty registry of each kind looks like, to start from. */
const EMPTY: Record<RegistryKind, unknown> = {
  domain: { version: 1, terms: {} },
  display: { version: 1, description: "", tables: {} },
};

/** The domain and display registries of each schema, edited as JSON. */
export function RegistryEditor({ sourceId, schemas }: { sourceId: string; schemas: string[] }) {
  const [schema, setSchema] = useState(schemas[0] ?? "");
  const [kind, setKind] = useState<RegistryKind>("domain");
  const registries = useQuery({
    queryKey: sourceKeys.registries(sourceId),
    queryFn: () => apiFetch<SourceRegistriesView>(`/api/datasources/${sourceId}/registries`),
  });

  if (schemas.length === 0) {
    return <EmptyState title="No schemas">Allow a schema on this source to describe it with registries.</EmptyState>;
  }
  return (
    <div className="space-y-4">
      <div>
        <h2 className="text-lg font-medium">Registries</h2>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          Per schema: the business terms the Data Analyst maps to tables and filters, and the columns and labels it
          shows a table's rows with. A registry is checked against the schema and the source's catalog before it is
          saved.
        </p>
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Schema">
          <Select value={schema} onChange={(e) => setSchema(e.target.value)}>
            {schemas.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Registry">
          <Select value={kind} onChange={(e) => setKind(e.target.value as RegistryKind)}>
            {(Object.keys(KIND_LABELS) as RegistryKind[]).map((k) => (
              <option key={k} value={k}>
                {KIND_LABELS[k]}
              </option>
            ))}
          </Select>
        </Field>
      </div>
      {registries.isPending ? (
        <p className="flex items-center gap-2 text-sm text-slate-500" role="status">
          <LoaderCircle className="size-4 animate-spin" aria-hidden /> Loading the registries…
        </p>
      ) : registries.error ? (
        <EmptyState title="The registries could not be read">{registries.error.message}</EmptyState>
      ) : (
        <RegistryForm
          key={`${kind}:${schema}:${stampOf(registries.data, kind, schema)?.updatedAt ?? "none"}`}
          sourceId={sourceId}
          kind={kind}
          schema={schema}
          view={registries.data}
        />
      )}
    </div>
  );
}

function stampOf(view: SourceRegistriesView, kind: RegistryKind, schema: string) {
  return view.stamps.find((s) => s.kind === kind && s.schema === schema);
}

function RegistryForm({
  sourceId,
  kind,
  schema,
  view,
}: {
  sourceId: string;
  kind: RegistryKind;
  schema: string;
  view: SourceRegistriesView;
}) {
  const queryClient = useQueryClient();
  const stored = kind === "domain" ? view.domain[schema] : view.display[schema];
  const stamp = stampOf(view, kind, schema);
  const save = useMutation({
    mutationFn: (registry: unknown) =>
      apiFetch<SavedRegistry>(`/api/datasources/${sourceId}/registries/${kind}/${encodeURIComponent(schema)}`, {
        method: "PUT",
        body: JSON.stringify(registry),
      }),
    onSuccess: () => {
      toast.success(`Saved the ${kind} registry of ${schema}.`);
      queryClient.invalidateQueries({ queryKey: sourceKeys.registries(sourceId) });
    },
  });

  const { text, setText, submit, refused } = useJsonDocument(stored ?? EMPTY[kind], save);
  return (
    <form onSubmit={submit} aria-label={`${kind} registry of ${schema}`} className="space-y-3">
      <p className="text-xs text-slate-500" data-testid="registry-stamp">
        {stamp
          ? `Saved by ${stamp.updatedBy}, ${new Date(stamp.updatedAt).toLocaleString()}.`
          : "None stored for this schema yet: the analyst works without it."}
      </p>
      <label className="flex flex-col gap-1 text-sm">
        Registry JSON
        <Textarea
          className="min-h-96 w-full p-3 font-mono text-xs"
          value={text}
          spellCheck={false}
          onChange={(e) => setText(e.target.value)}
          aria-invalid={refused.length > 0}
        />
      </label>
      <IssueList title="The registry was not saved" issues={refused} />
      <Button type="submit" disabled={save.isPending}>
        {save.isPending ? "Saving…" : "Save registry"}
      </Button>
    </form>
  );
}
