"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { type Role, roleAtLeast } from "@/lib/access";
import { NavCountBadge } from "./NavCountBadge";
import { headerItems, NAV_ITEMS } from "./nav";

/**
 * The pages a role can reach, as the header's row or the phone menu's list. `onNavigate` lets
 * the menu close when a link is followed, the current page's link included.
 */
export function NavLinks({
  role,
  vertical = false,
  onNavigate,
}: {
  role: Role;
  vertical?: boolean;
  onNavigate?: () => void;
}) {
  const pathname = usePathname();
  const allowed = NAV_ITEMS.filter((item) => roleAtLeast(role, item.minRole));
  const items = vertical ? allowed : headerItems(allowed);
  return (
    <nav
      aria-label="Main"
      className={vertical ? "flex flex-col gap-0.5" : "flex min-w-0 gap-1 overflow-x-auto px-1 py-1"}
    >
      {items.map((item) => {
        const active = pathname === item.href || pathname.startsWith(`${item.href}/`);
        const countId = item.count ? `nav-count-${item.count}` : undefined;
        return (
          <span key={item.href} className="relative shrink-0">
            <Link
              href={item.href}
              onClick={onNavigate}
              aria-current={active ? "page" : undefined}
              aria-describedby={countId}
              className={`block rounded-md px-3 text-sm whitespace-nowrap ${vertical ? "py-2.5 text-base" : "py-1.5"} ${
                active
                  ? "bg-brand-50 font-medium text-brand-700 dark:bg-slate-800 dark:text-brand-100"
                  : "text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"
              }`}
            >
              {item.label}
            </Link>
            {item.count && countId && <NavCountBadge count={item.count} id={countId} inline={vertical} />}
          </span>
        );
      })}
    </nav>
  );
}
