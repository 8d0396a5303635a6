/**
 * Why a piece of request text cannot be kept, or null when it can. PostgreSQL text cannot hold a
 * NUL, and a lone UTF-16 surrogate (what the JSON escape `"\ud800"` decodes to) is no Unicode
 * text at all: jsonb refuses it, UTF-8 encoders silently turn it into U+FFFD, and hashes of it
 * differ between encoders. Both are refused where input enters rather than where it breaks.
 */
export function unstorableText(text: string): string | null {
  if (text.includes("\u0000")) return "Must not contain NUL characters.";
  if (!text.isWellFormed()) return "Must not contain lone UTF-16 surrogates (\\ud800–\\udfff without their pair).";
  return null;
}
