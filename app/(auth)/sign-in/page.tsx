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

// What a form posted without JavaScript was sent back with: only known codes become text, so
// the address cannot put words on the page.
const FORM_ERRORS: Record<string, string> = {
  INVALID_CREDENTIALS: "Email or password is not right.",
  TOO_MANY_SIGN_IN_ATTEMPTS: "Too many attempts to sign in. Wait a minute, then try again.",
  NO_MEMBERSHIP: "Your account does not belong to any tenant yet. Ask an admin.",
};

function formError(code: string | string[] | undefined): string | null {
  if (typeof code !== "string") return null;
  return FORM_ERRORS[code] ?? "Enter your email address and password.";
}

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ next?: string | string[]; error?: string | string[] }>;
}) {
  const { next, error } = await searchParams;
  return (
    <main className="flex min-h-screen items-center justify-center p-6">
      <div className="w-full max-w-sm rounded-xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900">
        <h1 className="text-2xl font-semibold">Vigil</h1>
        <p className="mb-6 text-sm text-slate-600 dark:text-slate-400">Sign in to consult your experts.</p>
        <SignInForm demoAccounts={demoAccounts()} returnTo={safeReturnPath(next)} initialError={formError(error)} />
      </div>
    </main>
  );
}
