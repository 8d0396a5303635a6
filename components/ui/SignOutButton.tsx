"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { apiFetch } from "./api";

export function SignOutButton() {
  const router = useRouter();
  const queryClient = useQueryClient();
  return (
    <button
      type="button"
      onClick={async () => {
        await apiFetch("/api/session", { method: "DELETE" }).catch(() => undefined);
        queryClient.clear();
        router.replace("/sign-in");
        router.refresh();
      }}
      className="rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
    >
      Sign out
    </button>
  );
}
