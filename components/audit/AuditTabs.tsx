"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { AUDIT_TABS } from "./audit-tabs";

/** The audit's own row of pages; scrolls sideways on a phone rather than wrapping. */
export function AuditTabs() {
  const pathname = usePathname();
  return (
    <nav
      aria-label="Audit"
      className="mb-6 flex gap-1 overflow-x-auto border-b print:hidden border-slate-200 dark:border-slate-800"
    >
      {AUDIT_TABS.map((tab) => {
        const active = pathname === tab.href || (tab.also?.test(pathname) ?? false);
        return (
          <Link
            key={tab.href}
            href={tab.href}
            aria-current={active ? "page" : undefined}
            className={`-mb-px shrink-0 border-b-2 px-3 py-2 text-sm whitespace-nowrap ${
              active
                ? "border-brand-600 font-medium text-brand-700 dark:text-brand-100"
                : "border-transparent text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-slate-100"
            }`}
          >
            {tab.label}
          </Link>
        );
      })}
    </nav>
  );
}
