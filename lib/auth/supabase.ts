import { createServerClient, parseCookieHeader, serializeCookieHeader } from "@supabase/ssr";
import WebSocket from "ws";
import type { Identity } from "./types";

export interface CookieToSet {
  name: string;
  value: string;
  options: Record<string, unknown>;
}

function supabaseConfig(): { url: string; anonKey: string } {
  const url = process.env.SUPABASE_URL ?? process.env.NEXT_PUBLIC_SUPABASE_URL;
  const anonKey = process.env.SUPABASE_ANON_KEY ?? process.env.NEXT_PUBLIC_SUPABASE_ANON_KEY;
  if (!url || !anonKey) throw new Error("AUTH_MODE=supabase needs SUPABASE_URL and SUPABASE_ANON_KEY.");
  return { url, anonKey };
}

/**
 * A server client over a request's cookies. Refreshed or cleared cookies are handed to
 * `onSetCookies` so the caller (proxy, route handler) can put them on its response.
 */
export function supabaseServerClient(headers: Headers, onSetCookies: (cookies: CookieToSet[]) => void = () => {}) {
  const { url, anonKey } = supabaseConfig();
  return createServerClient(url, anonKey, {
    // supabase-js builds a realtime client eagerly, and Node 20 has no global WebSocket.
    realtime: { transport: WebSocket as never },
    cookies: {
      getAll: () => parseCookieHeader(headers.get("cookie") ?? "").map((c) => ({ name: c.name, value: c.value ?? "" })),
      setAll: (cookies) => onSetCookies(cookies as CookieToSet[]),
    },
  });
}

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

export function setCookieHeaders(cookies: CookieToSet[]): string[] {
  return cookies.map((c) => serializeCookieHeader(c.name, c.value, c.options));
}
