import { type Role, roleAtLeast } from "@/lib/access";
import { DomainError, errors } from "@/lib/errors";
import { addLogContext } from "@/lib/log";
import { claimInvitations, looksLikeApiKey, type Membership, membershipsOf, resolveApiKey } from "@/lib/tenancy";
import { authMode, TENANT_COOKIE } from "./config";
import { localIdentity } from "./local";
import { supabaseIdentity } from "./supabase";
import type { Identity, Session } from "./types";

/** The principal of a request: an API key, or a signed-in person in their chosen tenant. */
export async function getSession(headers: Headers): Promise<Session | null> {
  const session = await sessionOf(headers);
  if (session) addLogContext({ tenantId: session.tenantId });
  return session;
}

async function sessionOf(headers: Headers): Promise<Session | null> {
  const bearer = bearerToken(headers);
  if (bearer !== null) return looksLikeApiKey(bearer) ? apiKeySession(bearer) : null;
  const identity = authMode() === "supabase" ? await supabaseIdentity(headers) : await localIdentity(headers);
  if (!identity) return null;
  const tenants = await tenantsOf(identity);
  if (tenants.length === 0) {
    throw new DomainError(
      "forbidden",
      "NO_MEMBERSHIP",
      "Your account does not belong to any tenant yet. Ask an admin.",
    );
  }
  const chosen = readCookie(headers, TENANT_COOKIE);
  const active = tenants.find((t) => t.tenantId === chosen) ?? tenants[0];
  return fromMembership(identity, active, tenants);
}

export async function requireSession(req: Request): Promise<Session> {
  const session = await getSession(req.headers);
  if (!session) throw errors.unauthenticated();
  return session;
}

export async function requireRole(req: Request, role: Role): Promise<Session> {
  const session = await requireSession(req);
  if (!roleAtLeast(session.role, role)) throw errors.forbidden(`This needs the ${role} role; you are ${session.role}.`);
  return session;
}

/**
 * Like requireRole, for what only a signed-in person may do: an API key is refused whatever its
 * role, so a key can never mint or revoke keys and outlive the one that made it.
 */
export async function requireSignedInRole(req: Request, role: Role): Promise<Session> {
  const session = await requireRole(req, role);
  if (session.via !== "session") {
    throw new DomainError("forbidden", "SESSION_REQUIRED", "An API key cannot do this; sign in as a person.");
  }
  return session;
}

/** A person's tenants; a first sign-in with a confirmed email claims pending invitations. */
export async function tenantsOf(identity: Identity): Promise<Membership[]> {
  const tenants = await membershipsOf(identity.userId);
  if (tenants.length > 0 || !identity.emailConfirmed || !identity.email) return tenants;
  return (await claimInvitations(identity.userId, identity.email)) > 0 ? membershipsOf(identity.userId) : tenants;
}

async function apiKeySession(key: string): Promise<Session | null> {
  const resolved = await resolveApiKey(key);
  if (!resolved) return null;
  const membership: Membership = {
    tenantId: resolved.tenantId,
    tenantSlug: resolved.tenantSlug,
    tenantName: resolved.tenantName,
    role: resolved.role,
    email: "",
    displayName: resolved.keyName,
  };
  return fromMembership(
    { userId: `apikey:${resolved.keyId}`, email: "", name: resolved.keyName, emailConfirmed: false },
    membership,
    [membership],
    "api_key",
  );
}

function fromMembership(
  identity: Identity,
  active: Membership,
  tenants: Membership[],
  via: Session["via"] = "session",
): Session {
  return {
    userId: identity.userId,
    email: identity.email,
    name: active.displayName || identity.name,
    tenantId: active.tenantId,
    tenantSlug: active.tenantSlug,
    tenantName: active.tenantName,
    role: active.role,
    tenants,
    via,
  };
}

function bearerToken(headers: Headers): string | null {
  const value = headers.get("authorization");
  if (!value) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(value.trim());
  return match ? match[1] : "";
}

function readCookie(headers: Headers, name: string): string | undefined {
  const header = headers.get("cookie");
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const [k, ...rest] = part.trim().split("=");
    if (k === name) return decodeURIComponent(rest.join("="));
  }
  return undefined;
}
