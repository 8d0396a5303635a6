/**
 * Only web addresses become links: a source's address comes from search results, and a
 * `javascript:` or `data:` address must never be one. The normalised address, or null.
 */
export function safeHref(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.href : null;
  } catch {
    return null;
  }
}
