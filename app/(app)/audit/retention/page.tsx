import type { Metadata } from "next";
import { ErasureForm } from "@/components/audit/ErasureForm";
import { RetentionApply } from "@/components/audit/RetentionApply";
import { RetentionHistory } from "@/components/audit/RetentionHistory";
import { RetentionPolicyForm } from "@/components/audit/RetentionPolicyForm";
import { auditFilterOptions, retentionHistory, retentionPolicy } from "@/lib/audit";
import { adminPageSession } from "../admin-page";

export const metadata: Metadata = { title: "Retention · Audit" };

/** How long the audit record keeps what, applying that policy now, and erasing one person's content. */
export default async function AuditRetentionPage() {
  const session = await adminPageSession();
  if (!session) return null;
  const [policy, history, options] = await Promise.all([
    retentionPolicy(session),
    retentionHistory(session),
    auditFilterOptions(session),
  ]);
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Retention</h1>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          How long {session.tenantName} keeps run checkpoints, the execution trace and evidence.
        </p>
      </div>
      <RetentionPolicyForm policy={policy} />
      <RetentionApply />
      <RetentionHistory runs={history.runs} />
      <ErasureForm people={options.people} erasures={history.erasures} />
    </div>
  );
}
