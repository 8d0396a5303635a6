import type { Metadata } from "next";
import { AuditExports } from "@/components/audit/AuditExports";
import { adminPageSession } from "../admin-page";

export const metadata: Metadata = { title: "Exports · Audit" };

/** Exports of the trace, the decisions and the cases, each with the manifest that checks it. */
export default async function AuditExportsPage() {
  const session = await adminPageSession();
  if (!session) return null;
  return (
    <div>
      <h1 className="text-2xl font-semibold">Exports</h1>
      <p className="mb-6 text-sm text-slate-600 dark:text-slate-400">
        Files of {session.tenantName}&apos;s audit record. Each comes with its SHA-256 and the chain&apos;s head hash,
        so whoever receives it can check it was not altered.
      </p>
      <AuditExports />
    </div>
  );
}
