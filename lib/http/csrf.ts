import { DomainError, errors } from "@/lib/errors";

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);
// What a cross-site HTML form or a "simple" fetch cannot send without a CORS preflight, which
// Vigil never grants.
const BODY_TYPES = new Set(["application/json", "multipart/form-data"]);
const BEARER = /^Bearer\s+\S+$/i;

const csrfRejected = () =>
  new DomainError(
    "forbidden",
    "CSRF_REJECTED",
    "This request came from another site. Send it from Vigil itself, or from a program with an API key.",
  );

/** The media type of a Content-Type header, lower-cased and without parameters ("" for none). */
function mediaType(contentType: string | null): string {
  return (contentType ?? "").split(";")[0].trim().toLowerCase();
}

/**
 * Refuses a mutation that rides on the browser's cookies from another site: it must come from
 * this origin (`Origin`, else `Sec-Fetch-Site`) and carry a body only as JSON or multipart.
 * A request with `Authorization: Bearer …` is exempt: the session is then taken from that
 * header alone (lib/auth never reads the cookie beside it), and no other site can set it.
 */
export function assertSameSiteMutation(req: Request): void {
  if (!MUTATING.has(req.method.toUpperCase())) return;
  if (BEARER.test(req.headers.get("authorization")?.trim() ?? "")) return;
  if (!fromThisOrigin(req)) throw csrfRejected();
  const type = req.headers.get("content-type");
  if ((type !== null || declaresBody(req)) && !BODY_TYPES.has(mediaType(type))) {
    throw errors.unsupportedMediaType("application/json (or multipart/form-data for uploads)");
  }
}

function fromThisOrigin(req: Request): boolean {
  const origin = req.headers.get("origin");
  if (origin !== null) {
    const host = hostOf(origin);
    return host !== null && ownHosts(req).has(host);
  }
  const site = req.headers.get("sec-fetch-site");
  if (site !== null) return site === "same-origin" || site === "none";
  // Browsers send Origin with every cross-origin request and every non-GET one: a request with
  // neither header comes from a program, which holds the cookie only if it was given it.
  return true;
}

/** The names this request addressed us by: its URL, its Host, and a proxy's forwarded host. */
function ownHosts(req: Request): Set<string> {
  const hosts = new Set([new URL(req.url).host.toLowerCase()]);
  for (const name of ["host", "x-forwarded-host"]) {
    const value = req.headers.get(name)?.split(",")[0].trim().toLowerCase();
    if (value) hosts.add(value);
  }
  return hosts;
}

function hostOf(origin: string): string | null {
  try {
    const url = new URL(origin);
    return url.protocol === "http:" || url.protocol === "https:" ? url.host.toLowerCase() : null;
  } catch {
    return null; // "null" (a sandboxed frame, a privacy redirect) and anything unparsable
  }
}

/** What a browser sends with any body. A bodiless DELETE from fetch carries neither header. */
function declaresBody(req: Request): boolean {
  return Number(req.headers.get("content-length") ?? 0) > 0 || req.headers.has("transfer-encoding");
}
