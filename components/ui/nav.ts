import type { Role } from "@/lib/access";

/** A number shown next to a nav item, counted live for the people the item is for. */
export type NavCount = "openCases" | "waitingOnYou";

export interface NavItem {
  href: string;
  label: string;
  minRole: Role;
  count?: NavCount;
  /** Folded into one "Settings" link in the header's row (the phone menu lists each). */
  settings?: true;
}

export const NAV_ITEMS: NavItem[] = [
  { href: "/experts", label: "Experts", minRole: "member" },
  { href: "/runs", label: "Runs", minRole: "member" },
  { href: "/research", label: "Research", minRole: "member" },
  { href: "/requests", label: "My requests", minRole: "member", count: "waitingOnYou" },
  { href: "/inbox", label: "Inbox", minRole: "reviewer", count: "openCases" },
  { href: "/audit", label: "Audit", minRole: "admin" },
  { href: "/knowledge", label: "Knowledge", minRole: "admin" },
  { href: "/settings/api-keys", label: "API keys", minRole: "admin", settings: true },
  { href: "/settings/agents", label: "Agent settings", minRole: "admin", settings: true },
  { href: "/settings/data-sources", label: "Data sources", minRole: "admin", settings: true },
];

/** The header row's one link for the settings pages; each page lists the others (SettingsNav). */
export const SETTINGS_ITEM: NavItem = { href: "/settings", label: "Settings", minRole: "admin" };

/**
 * What the header's row shows: every page, with the settings pages as one "Settings" link. Ten
 * links did not fit beside the account at any desktop width, and the last ones were clipped.
 */
export function headerItems(items: NavItem[]): NavItem[] {
  const settings = items.filter((i) => i.settings);
  const rest = items.filter((i) => !i.settings);
  return settings.length > 0 ? [...rest, SETTINGS_ITEM] : rest;
}

export const SETTINGS_ITEMS = NAV_ITEMS.filter((i) => i.settings);
