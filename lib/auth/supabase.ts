import { type CookieToSet, supabaseServerClient } from "@/lib/supabase";
import type { Identity } from "./types";

interface SupabaseUser {
  id: string;
  email?: string;
  email_confirmed_at?: string | null;
  user_metadata?: Record<string, unknown>;
}

function toIdentity(user: SupabaseUser): Identity {
  const email = user.email ?? "";
  const name = typeof user.user_metadata?.name === "string" ? user.user_metadata.name : email.split("@")[0];
  return { userId: user.id, email, name, emailConfirmed: Boolean(user.email_confirmed_at) };
}

/** Validates the session with Supabase Auth (getUser, not getSession: cookies can be forged). */
export async function supabaseIdentity(headers: Headers): Promise<Identity | null> {
  const { data, error } = await supabaseServerClient(headers).auth.getUser();
  if (error || !data.user) return null;
  return toIdentity(data.user);
}

export async function supabaseSignIn(
  headers: Headers,
  email: string,
  password: string,
): Promise<{ identity: Identity; cookies: CookieToSet[] } | null> {
  const cookies: CookieToSet[] = [];
  const client = supabaseServerClient(headers, (c) => cookies.push(...c));
  const { data, error } = await client.auth.signInWithPassword({ email, password });
  if (error || !data.user) return null;
  return { identity: toIdentity(data.user), cookies };
}

export async function supabaseSignOut(headers: Headers): Promise<CookieToSet[]> {
  const cookies: CookieToSet[] = [];
  await supabaseServerClient(headers, (c) => cookies.push(...c)).auth.signOut();
  return cookies;
}
