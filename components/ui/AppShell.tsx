"use client";

import Link from "next/link";
import type { ReactNode } from "react";
import type { Role } from "@/lib/access";
import type { Membership } from "@/lib/tenancy/contract";
import { HeaderMenu } from "./HeaderMenu";
import { NavLinks } from "./NavLinks";
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
  return (
    <div className="min-h-screen">
      <header className="sticky top-0 z-30 print:hidden border-b border-slate-200 bg-white/90 backdrop-blur dark:border-slate-800 dark:bg-slate-900/90">
        <div className="mx-auto flex h-14 max-w-(--breakpoint-2xl) items-center gap-x-4 px-4 lg:gap-x-6">
          <Link href="/experts" className="text-lg font-semibold tracking-tight">
            Vigil
          </Link>
          {/* From xl up the nav and the account sit in the header; below, they fold into the menu: an
              admin's row did not fit beside the account any narrower. The header spans wider
              than the page's content so that it fits at 1280 px and up, name and email from 2xl. */}
          <div className="hidden min-w-0 flex-1 xl:block">
            <NavLinks role={session.role} />
          </div>
          <div className="ml-auto hidden shrink-0 items-center gap-3 xl:flex">
            <TenantSwitcher current={session.tenantId} tenants={session.tenants} />
            <div className="hidden text-right leading-tight 2xl:block" data-testid="current-user">
              <div className="text-sm font-medium">{session.name}</div>
              <div className="text-xs text-slate-500 dark:text-slate-400">
                {session.email} · <span data-testid="current-role">{session.role}</span>
              </div>
            </div>
            <ThemeToggle />
            <SignOutButton />
          </div>
          <div className="ml-auto xl:hidden">
            <HeaderMenu session={session} />
          </div>
        </div>
      </header>
      <main className="mx-auto max-w-6xl px-4 py-6 sm:py-8">{children}</main>
    </div>
  );
}
