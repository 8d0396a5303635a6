import type { Metadata } from "next";
import { SignInForm } from "@/components/auth/SignInForm";
import { safeReturnPath } from "@/lib/auth";
import { SEED_TENANTS } from "@/lib/demo";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

// The demo accounts are listed only where they exist: the embedded, seeded database.
function demoAccounts(): string[] {
  if (process.env.DATABASE_URL) return [];
  // A person in two tenants is one account.
  return [...new Set(SEED_TENANTS.flatMap((t) => t.people.map((p) => p.email)))];
}

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string | string[] }> }) {
  const { next } = await searchParams;
  return (
    <main className="flex min-h-screen items-center justify-center p-6">
      <div className="w-full max-w-sm rounded-xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900">
        <h1 className="text-2xl font-semibold">Vigil</h1>
        <p className="mb-6 text-sm text-slate-600 dark:text-slate-400">Sign in to consult your experts.</p>
        <SignInForm demoAccounts={demoAccounts()} returnTo={safeReturnPath(next)} />
      </div>
    </main>
  );
}
