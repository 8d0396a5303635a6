import { getSession } from "@/lib/auth";
import { DomainError, errors } from "@/lib/errors";
import type { HitlActor } from "@/lib/hitl";

const BEARER = /^Bearer\s+\S+$/i;

/**
 * The principal of an MCP request. MCP clients are programs, so only an API key
 * (`Authorization: Bearer vk_…`) is accepted — a browser's session cookie is not: the tenant and
 * role come from the key, never from tool arguments.
 */
export async function mcpActor(request: Request): Promise<HitlActor> {
  assertSameOrigin(request);
  if (!BEARER.test(request.headers.get("authorization")?.trim() ?? "")) throw errors.unauthenticated();
  const session = await getSession(request.headers);
  if (session?.via !== "api_key") throw errors.unauthenticated();
  return { tenantId: session.tenantId, userId: session.userId, role: session.role, name: session.name };
}

/**
 * The Streamable HTTP spec has servers validate `Origin`. Programs send none; a browser page of
 * another origin is refused (it could not read the answer anyway: there are no CORS headers).
 */
function assertSameOrigin(request: Request): void {
  const origin = request.headers.get("origin");
  if (origin === null) return;
  let host: string | null = null;
  try {
    host = new URL(origin).host;
  } catch {
    // an unparsable Origin is refused below
  }
  if (host !== new URL(request.url).host) {
    throw new DomainError("forbidden", "ORIGIN_FORBIDDEN", "Requests from another origin are not accepted here.", {
      origin,
    });
  }
}
