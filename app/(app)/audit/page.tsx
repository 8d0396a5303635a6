import type { Metadata } from "next";
import { EmptyState } from "@/components/ui/EmptyState";
import { RoleGate } from "@/components/ui/RoleGate";

export const metadata: Metadata = { title: "Audit" };

export default function AuditPage() {
  return (
    <RoleGate needs="admin">
      <h1 className="mb-6 text-2xl font-semibold">Audit trail</h1>
      <EmptyState title="The audit trail is coming">
        Every step of every run — node starts and completions, model calls with tokens and cost, tool invocations, human
        decisions and escalations — will be listed here from a hash-chained, append-only log that can be verified for
        tampering.
      </EmptyState>
    </RoleGate>
  );
}
