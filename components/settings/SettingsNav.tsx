"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { SETTINGS_ITEMS } from "@/components/ui/nav";
import { ScrollTabs, tabClass } from "@/components/ui/ScrollTabs";

/** The settings pages as tabs above each one: the header shows them as one "Settings" link. */
export function SettingsNav() {
  const pathname = usePathname();
  return (
    <ScrollTabs label="Settings" activeKey={pathname} className="-mx-4 mb-6 px-4">
      {SETTINGS_ITEMS.map((item) => {
        const active = pathname === item.href || pathname.startsWith(`${item.href}/`);
        return (
          <li key={item.href} className="shrink-0">
            <Link href={item.href} aria-current={active ? "page" : undefined} className={tabClass(active)}>
              {item.label}
            </Link>
          </li>
        );
      })}
    </ScrollTabs>
  );
}
