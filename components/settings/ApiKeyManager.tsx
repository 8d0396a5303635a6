"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { apiFetch } from "@/components/ui/api";
import { ConfirmButton } from "@/components/ui/ConfirmButton";
import { copyText } from "@/components/ui/clipboard";
import { EmptyState } from "@/components/ui/EmptyState";
import type { Role } from "@/lib/access";
import type { ApiKeySummary, CreatedApiKey } from "@/lib/tenancy/contract";

const inputClass =
  "rounded-md border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-900";

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

  return (
    <div className="space-y-6">
      <form onSubmit={submit} className="flex flex-wrap items-end gap-3" aria-label="Create API key">
        <label className="flex flex-col gap-1 text-sm">
          Name
          <input
            className={inputClass}
            value={name}
            onChange={(e) => setName(e.target.value)}
            required
            maxLength={100}
            placeholder="e.g. CI pipeline"
          />
        </label>
        <label className="flex flex-col gap-1 text-sm">
          Role
          <select className={inputClass} value={role} onChange={(e) => setRole(e.target.value as Role)}>
            <option value="member">member</option>
            <option value="reviewer">reviewer</option>
            <option value="admin">admin</option>
          </select>
        </label>
        <button
          type="submit"
          disabled={create.isPending}
          className="rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700 disabled:opacity-60"
        >
          {create.isPending ? "Creating…" : "Create key"}
        </button>
      </form>
      {create.error && (
        <p role="alert" className="text-sm text-red-600">
          {create.error.message}
        </p>
      )}
      {created && (
        <div className="rounded-md border border-amber-300 bg-amber-50 p-4 text-sm dark:border-amber-700 dark:bg-amber-950">
          <p className="font-medium">Copy this key now — it will not be shown again.</p>
          <code data-testid="new-api-key" className="mt-2 block break-all font-mono">
            {created.key}
          </code>
          <div className="mt-2 flex gap-3">
            <button
              type="button"
              className="rounded bg-amber-600 px-2 py-1 text-xs font-medium text-white hover:bg-amber-700"
              onClick={() => copyText(created.key, "Key copied")}
            >
              Copy key
            </button>
            <button type="button" className="text-xs underline" onClick={() => setCreated(null)}>
              Done
            </button>
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
        <div className="relative overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead className="text-xs uppercase text-slate-500">
              <tr>
                <th className="py-2">Name</th>
                <th>Key</th>
                <th>Role</th>
                <th>Created</th>
                <th>Last used</th>
                <th>Status</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {keys.data.items.map((k) => (
                <tr key={k.id} className="border-t border-slate-200 dark:border-slate-800">
                  <td className="py-2">{k.name}</td>
                  <td className="font-mono">{k.prefix}…</td>
                  <td>{k.role}</td>
                  <td>{new Date(k.createdAt).toLocaleString()}</td>
                  <td>{k.lastUsedAt ? new Date(k.lastUsedAt).toLocaleString() : "never"}</td>
                  <td>{k.revokedAt ? "revoked" : "active"}</td>
                  <td className="text-right">
                    {!k.revokedAt && (
                      <ConfirmButton
                        label="Revoke"
                        question={`Revoke “${k.name}”? Programs using it will stop working.`}
                        confirmLabel="Revoke key"
                        disabled={revoke.isPending}
                        onConfirm={() => revoke.mutate(k.id)}
                      />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
