"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { ScrollTabs, tabClass } from "@/components/ui/ScrollTabs";
import { AUDIT_TABS } from "./audit-tabs";

/** The audit's own row of pages; on a phone it scrolls sideways, with a fading edge where more tabs are. */
export function AuditTabs() {
  const pathname = usePathname();
  return (
    <ScrollTabs label="Audit" activeKey={pathname} className="mb-6 print:hidden">
      {AUDIT_TABS.map((tab) => {
        const active = pathname === tab.href || (tab.also?.test(pathname) ?? false);
        return (
          <li key={tab.href} className="shrink-0">
            <Link href={tab.href} aria-current={active ? "page" : undefined} className={tabClass(active)}>
              {tab.label}
            </Link>
          </li>
        );
      })}
    </ScrollTabs>
  );
}
