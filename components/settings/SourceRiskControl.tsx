"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ShieldAlert } from "lucide-react";
import { type FormEvent, useState } from "react";
import { toast } from "sonner";
import { apiFetch } from "@/components/ui/api";
import { Button } from "@/components/ui/Button";
import { Input } from "@/components/ui/Input";
import type { DataSourceSummary } from "@/lib/datasources/contract";
import { ErrorText } from "./shared";

/**
 * Why a source is disabled, and the admin's explicit acceptance of the risk: a role that was not
 * verified read-only is not queried until a test verifies it or the admin accepts, with a reason
 * the audit trail keeps.
 */
export function SourceRiskControl({ source, queryKey }: { source: DataSourceSummary; queryKey: string[] }) {
  const queryClient = useQueryClient();
  const [reason, setReason] = useState("");
  const accept = useMutation({
    mutationFn: () =>
      apiFetch(`/api/datasources/${source.id}/accept-risk`, {
        method: "POST",
        body: JSON.stringify({ accept: true, reason }),
      }),
    onSuccess: () => {
      toast.success(`“${source.name}” can be queried; the acceptance is in the audit trail.`);
      queryClient.invalidateQueries({ queryKey });
    },
  });
  if (source.kind === "warehouse") return null;
  if (source.riskAcceptedAt) {
    return (
      <p className="mt-3 text-xs text-amber-700" data-testid="risk-accepted">
        Risk accepted by {source.riskAcceptedBy} on {new Date(source.riskAcceptedAt).toLocaleString()}: queries run
        read-only, though the role was not verified read-only.
      </p>
    );
  }
  if (source.enabled) return null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    accept.mutate();
  };
  return (
    <form onSubmit={submit} className="mt-3 space-y-2 rounded-lg bg-amber-50 p-3 text-sm dark:bg-amber-950/40">
      <p className="flex items-start gap-2 text-amber-800 dark:text-amber-300" data-testid="source-disabled">
        <ShieldAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
        <span>
          Disabled: the analyst does not query this source until a test verifies that its role can only read. Grant the
          role SELECT only and test again, or accept the risk.
        </span>
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <label className="sr-only" htmlFor={`risk-reason-${source.id}`}>
          Why the risk is acceptable
        </label>
        <Input
          id={`risk-reason-${source.id}`}
          className="min-w-0 flex-1"
          placeholder="Why the risk is acceptable (kept in the audit trail)"
          value={reason}
          maxLength={500}
          onChange={(event) => setReason(event.target.value)}
        />
        <Button
          type="submit"
          variant="outline"
          size="sm"
          disabled={accept.isPending || reason.trim() === ""}
          className="border-amber-600 bg-transparent text-amber-800 hover:bg-amber-100 dark:bg-transparent dark:text-amber-300"
        >
          Accept the risk
        </Button>
      </div>
      <ErrorText error={accept.error} />
    </form>
  );
}
