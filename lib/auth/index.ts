import "server-only";

export { authMode } from "./config";
export { getLocalAuth } from "./local";
export { pageSession } from "./page";
export { getSession, requireRole, requireSession } from "./session";
export { signIn, signOut, tenantCookie } from "./sign-in";
export type { Session } from "./types";
