import type { Role } from "@/lib/access";

export interface NavItem {
  href: string;
  label: string;
  minRole: Role;
}

export const NAV_ITEMS: NavItem[] = [
  { href: "/experts", label: "Experts", minRole: "member" },
  { href: "/inbox", label: "Inbox", minRole: "reviewer" },
  { href: "/knowledge", label: "Knowledge", minRole: "admin" },
  { href: "/audit", label: "Audit", minRole: "admin" },
  { href: "/settings/api-keys", label: "API keys", minRole: "admin" },
];
