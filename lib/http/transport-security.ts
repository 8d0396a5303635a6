/**
 * HSTS for a year. Not `includeSubDomains`: the app's host does not speak for sibling hosts of
 * its domain, which may be other services still served over plain http.
 */
export const HSTS = "max-age=31536000";

/**
 * Whether the browser reached us over HTTPS: the request's own scheme (TLS ends here), the
 * scheme a TLS proxy in front reports (`X-Forwarded-Proto`, `Forwarded: proto=`), or the
 * configured public URL (`BETTER_AUTH_URL`) being https. A client that claims https over plain
 * http only gets cookies its own browser will not send back and an HSTS header browsers ignore
 * on plain http (RFC 6797 §8.1), so trusting the header costs nothing.
 */
export function servedOverHttps(req: { url: string; headers: Headers }): boolean {
  if (new URL(req.url).protocol === "https:") return true;
  const forwardedProto = req.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  if (forwardedProto === "https") return true;
  const forwarded = req.headers.get("forwarded")?.split(",")[0] ?? "";
  if (/(?:^|;)\s*proto="?https"?\s*(?:;|$)/i.test(forwarded)) return true;
  return (process.env.BETTER_AUTH_URL ?? "").toLowerCase().startsWith("https://");
}

const SECURE_ATTRIBUTE = /;\s*secure\s*(?:;|$)/i;

/** The Set-Cookie line with `Secure` added when it lacks it. */
export function secureCookie(line: string): string {
  return SECURE_ATTRIBUTE.test(line) ? line : `${line}; Secure`;
}

/**
 * The response as it leaves over HTTPS: `Strict-Transport-Security`, and `Secure` on every
 * cookie it sets, whoever set it (better-auth, Supabase, the tenant cookie) — one place rather
 * than each cookie's own options. Over plain http (an embedded install on localhost) it is
 * unchanged: a `Secure` cookie would not come back there.
 */
export function hardenForHttps<R extends Response>(req: { url: string; headers: Headers }, response: R): R {
  if (!servedOverHttps(req)) return response;
  let out = response;
  try {
    applyTo(out.headers);
  } catch {
    // Headers of Response.redirect() and the like are immutable: answer with a copy.
    out = new Response(response.body, response) as R;
    applyTo(out.headers);
  }
  return out;
}

function applyTo(headers: Headers): void {
  headers.set("strict-transport-security", HSTS);
  const cookies = headers.getSetCookie();
  if (cookies.every((line) => SECURE_ATTRIBUTE.test(line))) return;
  headers.delete("set-cookie");
  for (const line of cookies) headers.append("set-cookie", secureCookie(line));
}
