export { type AuthMode, authMode, TENANT_COOKIE } from "./config";
export { getLocalAuth } from "./local";
export { type PageSession, pageSession } from "./page";
export { getSession, requireRole, requireSession } from "./session";
export { signIn, signOut, tenantCookie } from "./sign-in";
export { supabaseServerClient } from "./supabase";
export type { Identity, Session } from "./types";
