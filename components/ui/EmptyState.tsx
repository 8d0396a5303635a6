import type { ReactNode } from "react";

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="rounded-xl border border-dashed border-slate-300 p-10 text-center dark:border-slate-700">
      <h2 className="text-lg font-medium">{title}</h2>
      {children && <div className="mx-auto mt-2 max-w-xl text-sm text-slate-600 dark:text-slate-400">{children}</div>}
    </div>
  );
}
