"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import type { ReactNode } from "react";
import { type Role, roleAtLeast } from "@/lib/access";
import type { Membership } from "@/lib/tenancy/contract";
import { NavCountBadge } from "./NavCountBadge";
import { NAV_ITEMS } from "./nav";
import { SignOutButton } from "./SignOutButton";
import { TenantSwitcher } from "./TenantSwitcher";
import { ThemeToggle } from "./ThemeToggle";

export interface ShellSession {
  name: string;
  email: string;
  role: Role;
  tenantId: string;
  tenantName: string;
  tenants: Membership[];
}

export function AppShell({ session, children }: { session: ShellSession; children: ReactNode }) {
  const pathname = usePathname();
  const items = NAV_ITEMS.filter((item) => roleAtLeast(session.role, item.minRole));
  return (
    <div className="min-h-screen">
      <header className="sticky top-0 z-10 border-b border-slate-200 bg-white/90 backdrop-blur dark:border-slate-800 dark:bg-slate-900/90">
        <div className="mx-auto flex min-h-14 max-w-6xl flex-wrap items-center gap-x-6 gap-y-1 px-4 py-2 sm:flex-nowrap sm:py-0">
          <Link href="/experts" className="text-lg font-semibold tracking-tight">
            Vigil
          </Link>
          {/* On a phone the nav gets a row of its own below the name and the account controls. */}
          <nav
            aria-label="Main"
            className="order-last -mx-1 flex w-full gap-1 overflow-x-auto px-1 pt-1.5 pb-0.5 sm:order-none sm:mx-0 sm:w-auto sm:overflow-visible sm:p-0"
          >
            {items.map((item) => {
              const active = pathname === item.href || pathname.startsWith(`${item.href}/`);
              const countId = item.count ? `nav-count-${item.count}` : undefined;
              return (
                <span key={item.href} className="relative shrink-0">
                  <Link
                    href={item.href}
                    aria-current={active ? "page" : undefined}
                    aria-describedby={countId}
                    className={`block rounded-md px-3 py-1.5 text-sm whitespace-nowrap ${
                      active
                        ? "bg-brand-50 font-medium text-brand-700 dark:bg-slate-800 dark:text-brand-100"
                        : "text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"
                    }`}
                  >
                    {item.label}
                  </Link>
                  {item.count && countId && <NavCountBadge count={item.count} id={countId} />}
                </span>
              );
            })}
          </nav>
          <div className="ml-auto flex min-w-0 items-center gap-2 sm:gap-3">
            <TenantSwitcher current={session.tenantId} tenants={session.tenants} />
            <div className="hidden text-right leading-tight md:block" data-testid="current-user">
              <div className="text-sm font-medium">{session.name}</div>
              <div className="text-xs text-slate-500 dark:text-slate-400">
                {session.email} · <span data-testid="current-role">{session.role}</span>
              </div>
            </div>
            <ThemeToggle />
            <SignOutButton />
          </div>
        </div>
      </header>
      <main className="mx-auto max-w-6xl px-4 py-6 sm:py-8">{children}</main>
    </div>
  );
}
