import type { Role } from "@/lib/access";

/** A number shown next to a nav item, counted live for the people the item is for. */
export type NavCount = "openCases" | "waitingOnYou";

export interface NavItem {
  href: string;
  label: string;
  minRole: Role;
  count?: NavCount;
}

export const NAV_ITEMS: NavItem[] = [
  { href: "/experts", label: "Experts", minRole: "member" },
  { href: "/runs", label: "Runs", minRole: "member" },
  { href: "/research", label: "Research", minRole: "member" },
  { href: "/requests", label: "My requests", minRole: "member", count: "waitingOnYou" },
  { href: "/inbox", label: "Inbox", minRole: "reviewer", count: "openCases" },
  { href: "/audit", label: "Audit", minRole: "admin" },
  { href: "/knowledge", label: "Knowledge", minRole: "admin" },
  { href: "/settings/api-keys", label: "API keys", minRole: "admin" },
  { href: "/settings/agents", label: "Agent settings", minRole: "admin" },
  { href: "/settings/data-sources", label: "Data sources", minRole: "admin" },
];
