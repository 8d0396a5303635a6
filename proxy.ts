import { getSessionCookie } from "better-auth/cookies";
import { type NextRequest, NextResponse } from "next/server";
import { supabaseServerClient } from "@/lib/supabase";

/**
 * Pages need a session: without one, send the person to sign in and back afterwards. This is an
 * optimistic check of the cookie only; the page itself validates the session. In supabase mode
 * this is also where expiring Supabase tokens are refreshed and re-set on the response.
 */
export async function proxy(request: NextRequest) {
  if (process.env.AUTH_MODE === "supabase") {
    const response = NextResponse.next();
    const client = supabaseServerClient(request.headers, (cookies) => {
      for (const c of cookies) response.cookies.set(c.name, c.value, c.options);
    });
    const { data } = await client.auth.getUser();
    return data.user ? response : toSignIn(request);
  }
  return getSessionCookie(request) ? NextResponse.next() : toSignIn(request);
}

function toSignIn(request: NextRequest) {
  const url = request.nextUrl.clone();
  url.pathname = "/sign-in";
  url.search = "";
  url.searchParams.set("next", request.nextUrl.pathname + request.nextUrl.search);
  return NextResponse.redirect(url);
}

export const config = {
  // Everything but the API (which answers 401 itself), the sign-in page and static files.
  matcher: ["/((?!api/|sign-in|_next/|favicon.ico|.*\\.(?:png|svg|ico|txt)$).*)"],
};
