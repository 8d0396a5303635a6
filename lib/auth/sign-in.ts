import { DomainError } from "@/lib/errors";
import { setCookieHeaders } from "@/lib/supabase";
import { authMode, TENANT_COOKIE } from "./config";
import { getLocalAuth } from "./local";
import { tenantsOf } from "./session";
import { supabaseSignIn, supabaseSignOut } from "./supabase";
import type { Identity, Session } from "./types";

const invalidCredentials = () =>
  new DomainError("unauthenticated", "INVALID_CREDENTIALS", "Email or password is not right.");

/** Signs a person in with the active identity provider; returns the Set-Cookie headers to send. */
export async function signIn(headers: Headers, email: string, password: string): Promise<string[]> {
  let identity: Identity;
  let cookies: string[];
  if (authMode() === "supabase") {
    const result = await supabaseSignIn(headers, email, password);
    if (!result) throw invalidCredentials();
    identity = result.identity;
    cookies = setCookieHeaders(result.cookies);
  } else {
    const auth = await getLocalAuth();
    const res = await auth.api.signInEmail({ body: { email, password }, headers, asResponse: true });
    if (!res.ok) throw invalidCredentials();
    const { user } = (await res.json()) as {
      user: { id: string; email: string; name: string; emailVerified: boolean };
    };
    identity = { userId: user.id, email: user.email, name: user.name, emailConfirmed: user.emailVerified };
    cookies = res.headers.getSetCookie();
  }
  // A person with no tenant could sign in but do nothing; say so now, and keep no session.
  if ((await tenantsOf(identity)).length === 0) {
    throw new DomainError(
      "forbidden",
      "NO_MEMBERSHIP",
      "Your account does not belong to any tenant yet. Ask an admin.",
    );
  }
  return cookies;
}

export async function signOut(headers: Headers): Promise<string[]> {
  const cleared = [`${TENANT_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax`];
  if (authMode() === "supabase") return [...setCookieHeaders(await supabaseSignOut(headers)), ...cleared];
  const auth = await getLocalAuth();
  const res = await auth.api.signOut({ headers, asResponse: true });
  return [...res.headers.getSetCookie(), ...cleared];
}

/** Chooses the tenant later requests act in; only a tenant the person belongs to. */
export function tenantCookie(session: Session, tenantId: string): string {
  if (!session.tenants.some((t) => t.tenantId === tenantId) || session.via !== "session") {
    throw new DomainError("forbidden", "TENANT_FORBIDDEN", "You are not a member of that tenant.");
  }
  return `${TENANT_COOKIE}=${encodeURIComponent(tenantId)}; Path=/; HttpOnly; SameSite=Lax; Max-Age=31536000`;
}
