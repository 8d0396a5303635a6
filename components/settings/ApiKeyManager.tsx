"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { apiFetch } from "@/components/ui/api";
import { Button } from "@/components/ui/Button";
import { ConfirmButton } from "@/components/ui/ConfirmButton";
import { copyText } from "@/components/ui/clipboard";
import {
  DataTable,
  DataTableBody,
  DataTableCell,
  DataTableHead,
  DataTableHeader,
  DataTableRow,
} from "@/components/ui/DataTable";
import { EmptyState } from "@/components/ui/EmptyState";
import { Field } from "@/components/ui/Field";
import { fieldErrors } from "@/components/ui/field-errors";
import { Input } from "@/components/ui/Input";
import { Select } from "@/components/ui/Select";
import type { Role } from "@/lib/access";
import type { ApiKeySummary, CreatedApiKey } from "@/lib/tenancy/contract";

export function ApiKeyManager() {
  const queryClient = useQueryClient();
  const keys = useQuery({
    queryKey: ["api-keys"],
    queryFn: () => apiFetch<{ items: ApiKeySummary[] }>("/api/api-keys"),
  });
  const [name, setName] = useState("");
  const [role, setRole] = useState<Role>("member");
  const [created, setCreated] = useState<CreatedApiKey | null>(null);

  const create = useMutation({
    mutationFn: () =>
      apiFetch<{ key: CreatedApiKey }>("/api/api-keys", { method: "POST", body: JSON.stringify({ name, role }) }),
    onSuccess: ({ key }) => {
      setCreated(key);
      setName("");
      queryClient.invalidateQueries({ queryKey: ["api-keys"] });
    },
  });
  const revoke = useMutation({
    mutationFn: (id: string) => apiFetch(`/api/api-keys/${id}`, { method: "DELETE" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["api-keys"] }),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate();
  }
  const problems = fieldErrors(create.error, ["name", "role"]);

  return (
    <div className="space-y-6">
      <form onSubmit={submit} className="flex flex-wrap items-start gap-3" aria-label="Create API key">
        <Field label="Name" error={problems.fields.name}>
          <Input
            value={name}
            onChange={(e) => setName(e.target.value)}
            required
            maxLength={100}
            placeholder="e.g. CI pipeline"
          />
        </Field>
        <Field label="Role" error={problems.fields.role}>
          <Select value={role} onChange={(e) => setRole(e.target.value as Role)}>
            <option value="member">member</option>
            <option value="reviewer">reviewer</option>
            <option value="admin">admin</option>
          </Select>
        </Field>
        <Button type="submit" disabled={create.isPending} className="sm:mt-6">
          {create.isPending ? "Creating…" : "Create key"}
        </Button>
      </form>
      {problems.general && (
        <p role="alert" className="text-sm text-red-600">
          {problems.general}
        </p>
      )}
      {created && (
        <div className="rounded-md border border-amber-300 bg-amber-50 p-4 text-sm dark:border-amber-700 dark:bg-amber-950">
          <p className="font-medium">Copy this key now — it will not be shown again.</p>
          <code data-testid="new-api-key" className="mt-2 block break-all font-mono">
            {created.key}
          </code>
          <div className="mt-2 flex gap-3">
            <Button size="xs" variant="warning" onClick={() => copyText(created.key, "Key copied")}>
              Copy key
            </Button>
            <Button
              variant="link"
              size="inline"
              className="text-xs text-current underline"
              onClick={() => setCreated(null)}
            >
              Done
            </Button>
          </div>
        </div>
      )}
      {keys.error ? (
        <p role="alert" className="text-sm text-red-600">
          {keys.error.message}
        </p>
      ) : keys.isPending ? (
        <p className="text-sm text-slate-500">Loading keys…</p>
      ) : keys.data.items.length === 0 ? (
        <EmptyState title="No API keys yet">Programs and agents use keys to call the API as this tenant.</EmptyState>
      ) : (
        <DataTable aria-label="API keys">
          <DataTableHead>
            <tr>
              <DataTableHeader>Name</DataTableHeader>
              <DataTableHeader>Key</DataTableHeader>
              <DataTableHeader>Role</DataTableHeader>
              <DataTableHeader>Created</DataTableHeader>
              <DataTableHeader>Last used</DataTableHeader>
              <DataTableHeader>Status</DataTableHeader>
              <DataTableHeader>
                <span className="sr-only">Actions</span>
              </DataTableHeader>
            </tr>
          </DataTableHead>
          <DataTableBody>
            {keys.data.items.map((k) => (
              <DataTableRow key={k.id} data-testid="api-key-row">
                <DataTableCell className="font-medium md:font-normal">{k.name}</DataTableCell>
                <DataTableCell label="Key" className="font-mono">
                  {k.prefix}…
                </DataTableCell>
                <DataTableCell label="Role">{k.role}</DataTableCell>
                <DataTableCell label="Created">{new Date(k.createdAt).toLocaleString()}</DataTableCell>
                <DataTableCell label="Last used">
                  {k.lastUsedAt ? new Date(k.lastUsedAt).toLocaleString() : "never"}
                </DataTableCell>
                <DataTableCell label="Status">{k.revokedAt ? "revoked" : "active"}</DataTableCell>
                <DataTableCell actions className={k.revokedAt ? "max-md:hidden" : undefined}>
                  {!k.revokedAt && (
                    <ConfirmButton
                      label="Revoke"
                      question={`Revoke “${k.name}”? Programs using it will stop working.`}
                      confirmLabel="Revoke key"
                      disabled={revoke.isPending}
                      onConfirm={() => revoke.mutate(k.id)}
                    />
                  )}
                </DataTableCell>
              </DataTableRow>
            ))}
          </DataTableBody>
        </DataTable>
      )}
    </div>
  );
}
