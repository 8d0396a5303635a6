"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import type { Membership } from "@/lib/tenancy/contract";
import { apiFetch } from "./api";

export function TenantSwitcher({ current, tenants }: { current: string; tenants: Membership[] }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const active = tenants.find((t) => t.tenantId === current);
  if (tenants.length < 2) {
    return (
      <span className="text-sm font-medium" data-testid="tenant-name">
        {active?.tenantName}
      </span>
    );
  }
  return (
    <label className="flex items-center gap-2 text-sm">
      <span className="sr-only">Tenant</span>
      <select
        data-testid="tenant-name"
        value={current}
        onChange={async (e) => {
          setError(null);
          try {
            await apiFetch("/api/session/tenant", {
              method: "POST",
              body: JSON.stringify({ tenantId: e.target.value }),
            });
            // Everything cached belongs to the old tenant.
            queryClient.clear();
            router.refresh();
          } catch (err) {
            setError(err instanceof Error ? err.message : "Could not switch tenant.");
          }
        }}
        className="rounded-md border border-slate-300 bg-white px-2 py-1 dark:border-slate-700 dark:bg-slate-900"
      >
        {tenants.map((t) => (
          <option key={t.tenantId} value={t.tenantId}>
            {t.tenantName} ({t.role})
          </option>
        ))}
      </select>
      {error && (
        <span role="alert" className="text-xs text-red-600">
          {error}
        </span>
      )}
    </label>
  );
}
