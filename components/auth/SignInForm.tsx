"use client";

import { type FormEvent, useState } from "react";
import { apiFetch } from "@/components/ui/api";
import { Button } from "@/components/ui/Button";
import { Input } from "@/components/ui/Input";

/** `returnTo` is a path on this site, checked by the server (an open redirect would let a link send people elsewhere). */
export function SignInForm({
  demoAccounts,
  returnTo,
  initialError = null,
}: {
  demoAccounts: string[];
  returnTo: string;
  /** What went wrong when the form was posted without JavaScript (the server sent the person back). */
  initialError?: string | null;
}) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(initialError);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setPending(true);
    setError(null);
    try {
      await apiFetch("/api/session", { method: "POST", body: JSON.stringify({ email, password }) });
      // Without a page to return to, "/" sends each role where it starts (reviewers: the inbox).
      // A whole page load: everything the browser holds was made for no one, and a client-side
      // replace followed by a refresh fetched the page twice, cancelling the first.
      window.location.replace(returnTo);
    } catch (e) {
      setError(e instanceof Error ? e.message : "Sign-in failed.");
      setPending(false);
    }
  }

  return (
    // Posted as a multipart form when JavaScript has not run (yet): the password goes in the body,
    // never in a URL, and the server answers with a redirect.
    <form
      onSubmit={submit}
      method="post"
      action="/api/session"
      encType="multipart/form-data"
      className="space-y-4"
      aria-label="Sign in"
    >
      <input type="hidden" name="returnTo" value={returnTo} />
      <label className="block">
        <span className="text-sm font-medium">Email</span>
        <Input
          type="email"
          name="email"
          autoComplete="username"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          className="mt-1 w-full text-base"
        />
      </label>
      <label className="block">
        <span className="text-sm font-medium">Password</span>
        <Input
          type="password"
          name="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          className="mt-1 w-full text-base"
        />
      </label>
      {error && (
        <p
          role="alert"
          className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700 dark:bg-red-950 dark:text-red-300"
        >
          {error}
        </p>
      )}
      <Button type="submit" disabled={pending} className="px-3 text-base w-full">
        {pending ? "Signing in…" : "Sign in"}
      </Button>
      {demoAccounts.length > 0 && (
        <div className="rounded-md border border-dashed border-slate-300 p-3 text-xs text-slate-600 dark:border-slate-700 dark:text-slate-400">
          <p className="font-medium">Demo accounts (password vigil-demo)</p>
          <ul className="mt-1 space-y-0.5">
            {demoAccounts.map((a) => (
              <li key={a}>
                <Button
                  variant="link"
                  size="inline"
                  className="text-xs font-normal text-inherit underline decoration-dotted underline-offset-auto hover:text-brand-600 dark:text-inherit dark:hover:text-brand-600"
                  onClick={() => {
                    setEmail(a);
                    setPassword("vigil-demo");
                  }}
                >
                  {a}
                </Button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </form>
  );
}
