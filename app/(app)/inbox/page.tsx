import type { Metadata } from "next";
import { EmptyState } from "@/components/ui/EmptyState";
import { RoleGate } from "@/components/ui/RoleGate";

export const metadata: Metadata = { title: "Inbox" };

export default function InboxPage() {
  return (
    <RoleGate needs="reviewer">
      <h1 className="mb-6 text-2xl font-semibold">Review inbox</h1>
      <EmptyState title="The review inbox is coming">
        Every decision an agent asks a human for — plan approvals, tool executions, sub-agent spawns, critical
        decisions, final reviews and cases sent by external agents — will wait here for a reviewer to approve, reject,
        modify or ask for clarification.
      </EmptyState>
    </RoleGate>
  );
}
