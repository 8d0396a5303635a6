import { errors } from "@/lib/errors";
import { unstorableText } from "./unstorable-text";

const BAD_ENCODING = "Not valid percent-encoding of UTF-8 text.";

/** Whether `text` percent-decodes to UTF-8 text (decodeURIComponent refuses cut-off and surrogate sequences). */
function decodes(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Refuses a URL whose path or query does not percent-decode to text. URLSearchParams would put
 * U+FFFD in silently and Next.js fails on such a path with a plain-text 500, so both are answered
 * 400 in the API's shape. The proxy calls this for every /api request before Next.js routes it.
 */
export function refuseMalformedUrl(url: URL): void {
  if (!decodes(url.pathname)) throw errors.invalidField("path", BAD_ENCODING);
  for (const pair of url.search.slice(1).split("&")) {
    const [key, ...value] = pair.replaceAll("+", " ").split("=");
    if (!decodes(key)) throw errors.invalidField("query", BAD_ENCODING);
    if (!decodes(value.join("="))) throw errors.invalidField(`query.${key}`, BAD_ENCODING);
  }
}

/**
 * Refuses a request whose path or query holds text no column can store (a NUL character, a lone
 * surrogate) or that does not decode at all: otherwise it reaches a query as an internal error.
 * Bodies are checked where they are parsed (lib/http's parseBody).
 */
export async function refuseUnstorableUrl(req: Request, context: unknown): Promise<void> {
  const url = new URL(req.url);
  refuseMalformedUrl(url);
  for (const [key, value] of url.searchParams) {
    const problem = unstorableText(key) ?? unstorableText(value);
    if (problem) throw errors.invalidField(`query.${key.replaceAll("\u0000", "")}`, problem);
  }
  const params = (context as { params?: Promise<Record<string, string | string[] | undefined>> } | undefined)?.params;
  for (const [name, value] of Object.entries((await params) ?? {})) {
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) {
      const problem = v === undefined ? null : unstorableText(v);
      if (problem) throw errors.invalidField(name, problem);
    }
  }
  if (url.pathname.includes("%00")) throw errors.invalidField("path", "Must not contain NUL characters.");
}
