/** The audit's pages, in the order its tab row shows them. `also` marks pages that belong to a tab. */
export const AUDIT_TABS: readonly { href: string; label: string; also?: RegExp }[] = [
  { href: "/audit", label: "Overview", also: /^\/audit\/runs\// },
  { href: "/audit/sessions", label: "Sessions" },
  { href: "/audit/decisions", label: "Decisions" },
  { href: "/audit/phi", label: "PHI access" },
  { href: "/audit/alerts", label: "Alerts" },
  { href: "/audit/exports", label: "Exports" },
  { href: "/audit/retention", label: "Retention" },
];
