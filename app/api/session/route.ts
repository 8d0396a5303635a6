import { z } from "zod";
import { getSession, signIn, signOut } from "@/lib/auth";
import { errors } from "@/lib/errors";
import { json, parseBody } from "@/lib/http";
import { route } from "@/lib/server";

const SignIn = z.object({ email: z.email().max(320), password: z.string().min(1).max(200) });

export const GET = route(async (req) => {
  const session = await getSession(req.headers);
  if (!session) throw errors.unauthenticated();
  return json({ status: "success", session });
});

/** Signs in; 429 TOO_MANY_SIGN_IN_ATTEMPTS (with Retry-After) after too many failures. */
export const POST = route(async (req) => {
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
