"use client";

import { Menu } from "lucide-react";
import { usePathname } from "next/navigation";
import { useEffect, useState } from "react";
import type { ShellSession } from "./AppShell";
import { NavLinks } from "./NavLinks";
import { Sheet, SheetContent, SheetTrigger } from "./Sheet";
import { SignOutButton } from "./SignOutButton";
import { TenantSwitcher } from "./TenantSwitcher";
import { ThemeToggle } from "./ThemeToggle";
import { useHydrated } from "./use-hydrated";

/**
 * The header on a phone: one button that opens the navigation and the account controls as a
 * sheet. Following a link closes it; Escape closes it and gives the focus back to the button.
 */
export function HeaderMenu({ session }: { session: ShellSession }) {
  const [open, setOpen] = useState(false);
  const pathname = usePathname();
  const hydrated = useHydrated();
  // A page change from anywhere (a link in the page, Back) leaves no menu over the new page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: close on every navigation
  useEffect(() => setOpen(false), [pathname]);
  return (
    <Sheet open={open} onOpenChange={setOpen}>
      <SheetTrigger
        aria-label="Menu"
        data-testid="header-menu-button"
        // A tap before hydration would open nothing.
        disabled={!hydrated}
        className="inline-flex items-center gap-1.5 rounded-md border border-slate-300 px-2.5 py-1.5 text-sm hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
      >
        <Menu aria-hidden className="size-5" />
      </SheetTrigger>
      <SheetContent side="right" title="Menu" data-testid="header-menu">
        <div className="flex h-full flex-col gap-5">
          <div className="space-y-2">
            <div className="leading-tight" data-testid="current-user">
              <div className="font-medium">{session.name}</div>
              <div className="text-sm break-all text-slate-500 dark:text-slate-400">
                {session.email} · <span data-testid="current-role">{session.role}</span>
              </div>
            </div>
            <TenantSwitcher current={session.tenantId} tenants={session.tenants} />
          </div>
          <NavLinks role={session.role} vertical onNavigate={() => setOpen(false)} />
          <div className="mt-auto flex items-center justify-between gap-2 border-t border-slate-200 pt-4 dark:border-slate-800">
            <ThemeToggle withLabel />
            <SignOutButton />
          </div>
        </div>
      </SheetContent>
    </Sheet>
  );
}
