"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import type { ReactNode } from "react";
import { type Role, roleAtLeast } from "@/lib/access";
import type { Membership } from "@/lib/tenancy/contract";
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
        <div className="mx-auto flex h-14 max-w-6xl items-center gap-6 px-4">
          <Link href="/experts" className="text-lg font-semibold tracking-tight">
            Vigil
          </Link>
          <nav aria-label="Main" className="flex gap-1">
            {items.map((item) => {
              const active = pathname === item.href || pathname.startsWith(`${item.href}/`);
              return (
                <Link
                  key={item.href}
                  href={item.href}
                  aria-current={active ? "page" : undefined}
                  className={`rounded-md px-3 py-1.5 text-sm ${
                    active
                      ? "bg-brand-50 font-medium text-brand-700 dark:bg-slate-800 dark:text-brand-100"
                      : "text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"
                  }`}
                >
                  {item.label}
                </Link>
              );
            })}
          </nav>
          <div className="ml-auto flex items-center gap-3">
            <TenantSwitcher current={session.tenantId} tenants={session.tenants} />
            <div className="text-right leading-tight" data-testid="current-user">
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
      <main className="mx-auto max-w-6xl px-4 py-8">{children}</main>
    </div>
  );
}
