"use client";

import { Moon, Sun, SunMoon } from "lucide-react";
import { useTheme } from "next-themes";
import { useHydrated } from "./use-hydrated";

export function ThemeToggle({ withLabel = false }: { withLabel?: boolean }) {
  const { resolvedTheme, setTheme } = useTheme();
  // The theme is known only in the browser; render a stable placeholder until then.
  const mounted = useHydrated();
  const dark = mounted && resolvedTheme === "dark";
  const Icon = mounted ? (dark ? Sun : Moon) : SunMoon;
  const label = dark ? "Light theme" : "Dark theme";
  return (
    <button
      type="button"
      aria-label={dark ? "Switch to light theme" : "Switch to dark theme"}
      title={label}
      onClick={() => setTheme(dark ? "light" : "dark")}
      // Until the page is hydrated a click would do nothing: say so rather than swallow it.
      disabled={!mounted}
      className="inline-flex items-center gap-2 rounded-md border border-slate-300 px-2 py-1.5 text-sm hover:bg-slate-100 disabled:opacity-60 dark:border-slate-700 dark:hover:bg-slate-800"
    >
      <Icon aria-hidden className="size-4" />
      {withLabel && <span>{label}</span>}
    </button>
  );
}
