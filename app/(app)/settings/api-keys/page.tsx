import type { Metadata } from "next";
import { ApiKeyManager } from "@/components/settings/ApiKeyManager";
import { RoleGate } from "@/components/ui/RoleGate";
import { pageSession } from "@/lib/server";

export const metadata: Metadata = { title: "API keys" };

export default async function ApiKeysPage() {
  const result = await pageSession();
  if ("problem" in result) return null;
  return (
    <RoleGate needs="admin">
      <h1 className="text-2xl font-semibold">API keys</h1>
      <p className="mb-6 text-sm text-slate-600 dark:text-slate-400">
        Send a key as <code>Authorization: Bearer &lt;key&gt;</code>. A key acts in {result.session.tenantName} with the
        role you give it.
      </p>
      <ApiKeyManager />
    </RoleGate>
  );
}
