import { DomainError } from "@/lib/errors";
import { setCookieHeaders } from "@/lib/supabase";
import { authMode, TENANT_COOKIE } from "./config";
import { getLocalAuth } from "./local";
import { tenantsOf } from "./session";
import { limitSignIn } from "./sign-in-limits";
import { supabaseSignIn, supabaseSignOut } from "./supabase";
import type { Identity, Session } from "./types";

const invalidCredentials = () =>
  new DomainError("unauthenticated", "INVALID_CREDENTIALS", "Email or password is not right.");

/**
 * Signs a person in with the active identity provider, within the sign-in limits (429
 * TOO_MANY_SIGN_IN_ATTEMPTS); returns the Set-Cookie headers to send.
 */
export async function signIn(headers: Headers, email: string, password: string): Promise<string[]> {
  const signedIn = await limitSignIn(
    headers,
    email,
    () => checkPassword(headers, email, password),
    (result) => (result ? "succeeded" : "failed"),
  );
  if (!signedIn) throw invalidCredentials();
  // A person with no tenant could sign in but do nothing; say so now, and keep no session.
  if ((await tenantsOf(signedIn.identity)).length === 0) {
    throw new DomainError(
      "forbidden",
      "NO_MEMBERSHIP",
      "Your account does not belong to any tenant yet. Ask an admin.",
    );
  }
  return signedIn.cookies;
}

/** The identity and session cookies for a right email and password; null for wrong ones. */
async function checkPassword(
  headers: Headers,
  email: string,
  password: string,
): Promise<{ identity: Identity; cookies: string[] } | null> {
  if (authMode() === "supabase") {
    const result = await supabaseSignIn(headers, email, password);
    return result && { identity: result.identity, cookies: setCookieHeaders(result.cookies) };
  }
  const auth = await getLocalAuth();
  const res = await auth.api.signInEmail({ body: { email, password }, headers, asResponse: true });
  if (!res.ok) return null;
  const { user } = (await res.json()) as {
    user: { id: string; email: string; name: string; emailVerified: boolean };
  };
  return {
    identity: { userId: user.id, email: user.email, name: user.name, emailConfirmed: user.emailVerified },
    cookies: res.headers.getSetCookie(),
  };
}

export async function signOut(headers: Headers): Promise<string[]> {
  const cleared = [`${TENANT_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax`];
  if (authMode() === "supabase") return [...setCookieHeaders(await supabaseSignOut(headers)), ...cleared];
  const auth = await getLocalAuth();
  const res = await auth.api.signOut({ headers, asResponse: true });
  return [...res.headers.getSetCookie(), ...cleared];
}

// Resolves a return path as a browser would, to see where it really leads: "/\evil.example" and
// "/\t/evil.example" both start with one slash, yet browsers read them as "//evil.example".
const OWN_ORIGIN = "https://vigil.invalid";

/**
 * Where to send a person after signing in: the `next` path if it stays on this site, else "/"
 * (which sends each role where it starts).
 */
export function safeReturnPath(next: unknown): string {
  if (typeof next !== "string" || !next.startsWith("/")) return "/";
  let url: URL;
  try {
    url = new URL(next, OWN_ORIGIN);
  } catch {
    return "/";
  }
  // A path that normalises to "//…" (say "/.//evil.example") would be read as another host.
  if (url.origin !== OWN_ORIGIN || url.pathname.startsWith("//")) return "/";
  return url.pathname + url.search + url.hash;
}

/** Chooses the tenant later requests act in; only a tenant the person belongs to. */
export function tenantCookie(session: Session, tenantId: string): string {
  if (!session.tenants.some((t) => t.tenantId === tenantId) || session.via !== "session") {
    throw new DomainError("forbidden", "TENANT_FORBIDDEN", "You are not a member of that tenant.");
  }
  return `${TENANT_COOKIE}=${encodeURIComponent(tenantId)}; Path=/; HttpOnly; SameSite=Lax; Max-Age=31536000`;
}
