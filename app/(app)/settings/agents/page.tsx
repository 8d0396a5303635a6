import type { Metadata } from "next";
import { AgentSettings } from "@/components/settings/AgentSettings";
import { RoleGate } from "@/components/ui/RoleGate";
import { pageSession } from "@/lib/server";

export const metadata: Metadata = { title: "Agent tools & principles" };

export default async function AgentSettingsPage() {
  const result = await pageSession();
  if ("problem" in result) return null;
  return (
    <RoleGate needs="admin">
      <h1 className="text-2xl font-semibold">Agent tools &amp; principles</h1>
      <p className="mb-6 text-sm text-slate-600 dark:text-slate-400">
        What the agents of {result.session.tenantName} may use in autonomous runs, the principles their drafts are
        validated against, and who may decide their checkpoints.
      </p>
      <AgentSettings />
    </RoleGate>
  );
}
