import type { ReactNode } from "react";
import { type Role, roleAtLeast } from "@/lib/access";
import { EmptyState } from "./EmptyState";

/** Shows its children only to a role that may see them; everyone else gets an honest refusal. */
export function RoleGate({ role, needs, children }: { role: Role; needs: Role; children: ReactNode }) {
  if (!roleAtLeast(role, needs)) {
    return (
      <EmptyState title="Not available for your role">
        This page needs the {needs} role; you are signed in as {role}.
      </EmptyState>
    );
  }
  return children;
}
