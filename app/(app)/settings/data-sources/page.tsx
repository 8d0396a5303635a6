import type { Metadata } from "next";
import { DataSourceManager } from "@/components/settings/DataSourceManager";
import { RoleGate } from "@/components/ui/RoleGate";
import { pageSession } from "@/lib/server";

export const metadata: Metadata = { title: "Data sources" };

export default async function DataSourcesPage() {
  const result = await pageSession();
  if ("problem" in result) return null;
  return (
    <RoleGate needs="admin">
      <h1 className="text-2xl font-semibold">Data sources</h1>
      <p className="mb-6 text-sm text-slate-600 dark:text-slate-400">
        The databases the Data Analyst (SQL) may read in {result.session.tenantName}. Every query runs in a read-only
        transaction with a timeout and a row limit; connection strings are stored encrypted and never shown again.
      </p>
      <DataSourceManager />
    </RoleGate>
  );
}
