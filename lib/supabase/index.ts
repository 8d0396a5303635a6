// The Supabase Auth client over a request's cookies: used by sign-in and session checks in
// lib/auth, and by the page proxy, which refreshes expiring tokens before a page renders.
import "server-only";
import { createServerClient, parseCookieHeader, serializeCookieHeader } from "@supabase/ssr";
import WebSocket from "ws";

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

export function setCookieHeaders(cookies: CookieToSet[]): string[] {
  return cookies.map((c) => serializeCookieHeader(c.name, c.value, c.options));
}
