import { config } from "@/lib/config";
import { logger } from "@/lib/log";

let parsed: { from: string; sources: string[] } | null = null;

/**
 * Where answers may load images from besides Vigil itself: the https URL prefixes an admin lists
 * in VIGIL_IMAGE_HOSTS (comma-separated; a bare host stands for all of it, a URL for everything
 * under its path). An answer quotes text anyone could have put in a document; a remote image
 * would report to its host whoever reads the answer, with whatever the text put in its URL.
 */
export function answerImageSources(setting = config().imageHosts): string[] {
  if (parsed?.from !== setting) parsed = { from: setting, sources: parseImageSources(setting) };
  return parsed.sources;
}

function parseImageSources(setting: string): string[] {
  const sources: string[] = [];
  for (const entry of setting.split(/[\s,]+/).filter(Boolean)) {
    const source = imageSource(entry);
    if (source) sources.push(source);
    else logger().warn(`VIGIL_IMAGE_HOSTS: ignoring "${entry}" (give a host name or an https:// URL prefix)`);
  }
  return [...new Set(sources)];
}

function imageSource(entry: string): string | null {
  const text = entry.includes("://") ? entry : `https://${entry}/`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  const plain = url.protocol === "https:" && !url.username && !url.password && !url.search && !url.hash;
  // The prefix goes verbatim into a CSP source list: only what the URL parser re-serialised.
  if (!plain || !/^[a-z0-9.-]+(:\d+)?$/.test(url.host) || !/^[\w\-./~%]*$/.test(url.pathname)) return null;
  if (!entry.includes("://") && url.host !== entry.toLowerCase()) return null;
  // A folder, never a file-name prefix: CSP and the renderer then allow exactly the same URLs.
  return url.origin + (url.pathname.endsWith("/") ? url.pathname : `${url.pathname}/`);
}

/**
 * The Content-Security-Policy of a page: scripts only with this response's nonce (and what they
 * load), images only from Vigil and the allowlisted hosts, and no framing by any other page.
 * Styles stay 'unsafe-inline': libraries insert <style> elements that carry no nonce, and a
 * style cannot run code. Scripts keep 'unsafe-eval': the review forms check an edit against the
 * case adapter's JSON Schema in the browser with Ajv, which compiles each schema to a function;
 * the schemas come from the server at run time, so they cannot be compiled ahead. Only scripts
 * this response's nonce admitted can reach eval, so injected markup still runs nothing.
 */
export function contentSecurityPolicy(nonce: string): string {
  const directives = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic' 'unsafe-eval'`,
    "style-src 'self' 'unsafe-inline'",
    ["img-src 'self' data: blob:", ...answerImageSources()].join(" "),
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ];
  return directives.join("; ");
}
