import { z } from "zod";
import { getSession, safeReturnPath, signIn, signOut } from "@/lib/auth";
import { DomainError, errors } from "@/lib/errors";
import { json, parseBody, parseFormFields } from "@/lib/http";
import { route } from "@/lib/server";

const SignIn = z.object({ email: z.email().max(320), password: z.string().min(1).max(200) });

export const GET = route(async (req) => {
  const session = await getSession(req.headers);
  if (!session) throw errors.unauthenticated();
  return json({ status: "success", session });
});

const SignInForm = SignIn.extend({ returnTo: z.string().max(2048).optional() });

/**
 * The sign-in form posted by a browser without JavaScript: answered with a redirect, to the page
 * asked for or back to the form with the error's code, never with JSON a person would have to read.
 */
async function signInFromForm(req: Request): Promise<Response> {
  let returnTo = "/";
  try {
    const form = await parseFormFields(req, SignInForm, 16 * 1024);
    returnTo = safeReturnPath(form.returnTo);
    const headers = new Headers({ location: returnTo });
    for (const c of await signIn(req.headers, form.email, form.password)) headers.append("set-cookie", c);
    return new Response(null, { status: 303, headers });
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const back = new URLSearchParams({ error: error.code, next: returnTo });
    return new Response(null, { status: 303, headers: { location: `/sign-in?${back}` } });
  }
}

/** Signs in; 429 TOO_MANY_SIGN_IN_ATTEMPTS (with Retry-After) after too many failures. */
export const POST = route(async (req) => {
  if (req.headers.get("content-type")?.toLowerCase().startsWith("multipart/form-data")) return signInFromForm(req);
  const { email, password } = await parseBody(req, SignIn, 16 * 1024);
  const cookies = await signIn(req.headers, email, password);
  const headers = new Headers();
  for (const c of cookies) headers.append("set-cookie", c);
  return json({ status: "success" }, { headers });
});

export const DELETE = route(async (req) => {
  const cookies = await signOut(req.headers);
  const headers = new Headers();
  for (const c of cookies) headers.append("set-cookie", c);
  return json({ status: "success" }, { headers });
});
