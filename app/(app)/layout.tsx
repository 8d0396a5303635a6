import type { ReactNode } from "react";
import { AppShell } from "@/components/ui/AppShell";
import { EmptyState } from "@/components/ui/EmptyState";
import { pageSession } from "@/lib/server";

export const dynamic = "force-dynamic";

export default async function AppLayout({ children }: { children: ReactNode }) {
  const result = await pageSession();
  if ("problem" in result) {
    return (
      <main className="mx-auto max-w-xl p-10">
        <EmptyState title="You cannot use Vigil yet">{result.problem}</EmptyState>
      </main>
    );
  }
  const { name, email, role, tenantId, tenantName, tenants } = result.session;
  return <AppShell session={{ name, email, role, tenantId, tenantName, tenants }}>{children}</AppShell>;
}
