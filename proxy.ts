import { getSessionCookie } from "better-auth/cookies";
import { type NextRequest, NextResponse } from "next/server";
import { contentSecurityPolicy, errorResponse, hardenForHttps, refuseMalformedUrl } from "@/lib/http";
import { supabaseServerClient } from "@/lib/supabase";

/**
 * Every page gets a Content-Security-Policy with a fresh nonce: Next.js reads it from the request
 * headers and puts the nonce on its own scripts; the root layout hands it to the few that render
 * their own inline script.
 *
 * Pages other than sign-in need a session: without one, send the person to sign in and back
 * afterwards. This is an optimistic check of the cookie only; the page itself validates the
 * session. In supabase mode this is also where expiring Supabase tokens are refreshed and re-set
 * on the response. Served over HTTPS, pages get HSTS and every cookie set here is `Secure`.
 *
 * API requests come here only when their path holds a `%` (see the matcher): a path Next.js
 * cannot percent-decode would fail inside its router with a plain-text 500 before any route
 * handler runs, so it is answered here, 400 in the API's error shape; any other passes untouched.
 */
export async function proxy(request: NextRequest) {
  if (request.nextUrl.pathname.startsWith("/api/")) return apiRequest(request);
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(18))).toString("base64");
  const policy = contentSecurityPolicy(nonce);
  const headers = new Headers(request.headers);
  headers.set("x-nonce", nonce);
  headers.set("content-security-policy", policy);
  const response = (await admit(request, headers)) ?? toSignIn(request);
  response.headers.set("content-security-policy", policy);
  return hardenForHttps(request, response);
}

function apiRequest(request: NextRequest): Response {
  try {
    refuseMalformedUrl(new URL(request.url));
  } catch (error) {
    return hardenForHttps(request, errorResponse(error));
  }
  return NextResponse.next();
}

/** The response that lets the request through, or null when it needs a session it lacks. */
async function admit(request: NextRequest, headers: Headers): Promise<NextResponse | null> {
  const response = NextResponse.next({ request: { headers } });
  if (request.nextUrl.pathname === "/sign-in") return response;
  if (process.env.AUTH_MODE === "supabase") {
    const client = supabaseServerClient(request.headers, (cookies) => {
      for (const c of cookies) response.cookies.set(c.name, c.value, c.options);
    });
    const { data } = await client.auth.getUser();
    return data.user ? response : null;
  }
  return getSessionCookie(request) ? response : null;
}

function toSignIn(request: NextRequest) {
  const url = request.nextUrl.clone();
  url.pathname = "/sign-in";
  url.search = "";
  url.searchParams.set("next", request.nextUrl.pathname + request.nextUrl.search);
  return NextResponse.redirect(url);
}

export const config = {
  // Every page, the sign-in page included; not static files. Of the API (which answers 401
  // itself) only paths with a percent sign: Next.js buffers the body of every request the proxy
  // sees (up to 10 MB, cutting the rest), which would break uploads and the body read deadline.
  matcher: ["/((?!api/|_next/|favicon.ico|.*\\.(?:png|svg|ico|txt)$).*)", "/api/:path(.*%.*)"],
};
