import "server-only";

export { recordPeerAddresses } from "./client-address";
export { pageSession } from "./page";
export { getSession, requireRole, requireSession, requireSignedInRole } from "./session";
export { safeReturnPath, signIn, signOut, tenantCookie } from "./sign-in";
export type { Session } from "./types";
