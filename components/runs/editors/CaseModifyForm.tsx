"use client";

import { useQuery } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import { type CaseDetailBody, hitlFetch } from "@/components/hitl/api";

// The inbox's own "modify and approve" form, for the checkpoints whose editable fields it lays
// out well (a sub-agent's task and tools, the final text); the form library loads when opened.
const ModifyForm = dynamic(() => import("@/components/hitl/ModifyForm").then((m) => m.ModifyForm), {
  ssr: false,
  loading: () => <p className="text-sm text-slate-500">Loading the form…</p>,
});

export function CaseModifyForm({
  caseId,
  busy,
  onApprove,
}: {
  caseId: string;
  busy: boolean;
  onApprove: (modifications: Record<string, unknown>) => void;
}) {
  const { data, error } = useQuery({
    queryKey: ["hitl", "case", caseId],
    queryFn: () => hitlFetch<CaseDetailBody>(`/api/hitl/cases/${encodeURIComponent(caseId)}`),
  });
  if (error) {
    return (
      <p role="alert" className="text-sm text-red-600 dark:text-red-400">
        Could not load the form: {error.message}
      </p>
    );
  }
  if (!data) return <p className="text-sm text-slate-500">Loading the form…</p>;
  return <ModifyForm kase={data.case} busy={busy} onApprove={onApprove} />;
}
