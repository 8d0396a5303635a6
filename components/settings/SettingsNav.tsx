"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { SETTINGS_ITEMS } from "@/components/ui/nav";

/** The settings pages as tabs above each one: the header shows them as one "Settings" link. */
export function SettingsNav() {
  const pathname = usePathname();
  return (
    <nav
      aria-label="Settings"
      className="-mx-4 mb-6 overflow-x-auto border-b border-slate-200 px-4 dark:border-slate-800"
    >
      <ul className="flex gap-1">
        {SETTINGS_ITEMS.map((item) => {
          const active = pathname === item.href || pathname.startsWith(`${item.href}/`);
          return (
            <li key={item.href} className="shrink-0">
              <Link
                href={item.href}
                aria-current={active ? "page" : undefined}
                className={`block border-b-2 px-3 py-2 text-sm whitespace-nowrap ${
                  active
                    ? "border-brand-600 font-medium text-brand-700 dark:text-brand-100"
                    : "border-transparent text-slate-600 hover:text-slate-900 dark:text-slate-300 dark:hover:text-white"
                }`}
              >
                {item.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
