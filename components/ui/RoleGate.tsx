import type { ReactNode } from "react";
import { type Role, roleAtLeast } from "@/lib/access";
import { pageSession } from "@/lib/auth";
import { EmptyState } from "./EmptyState";

/**
 * Shows a page's content only to a role that may see it; everyone else gets an honest refusal.
 * The session lookup is shared with the layout's (one per request).
 */
export async function RoleGate({ needs, children }: { needs: Role; children: ReactNode }) {
  const result = await pageSession();
  // The layout already tells a person without a tenant why they cannot go on.
  if ("problem" in result) return null;
  const { role } = result.session;
  if (!roleAtLeast(role, needs)) {
    return (
      <EmptyState title="Not available for your role">
        This page needs the {needs} role; you are signed in as {role}.
      </EmptyState>
    );
  }
  return children;
}
