// Internal names (adapter keys, field names, file names) in the words a person reads. Pure:
// imported by server code and by client components alike.

/**
 * Short words the product's domains write in capitals that the no-vowel rule below does not
 * catch: `lgv_id` reads "LGV ID", `phi_access` "PHI access", `fda_meeting` "FDA meeting".
 * Only words that are never ordinary English words belong here ("us", "nice" do not).
 */
const ACRONYMS = new Set([
  "ai",
  "api",
  "ema",
  "eu",
  "faq",
  "fda",
  "gcp",
  "gmp",
  "hitl",
  "ich",
  "id",
  "ids",
  "json",
  "phi",
  "qaly",
  "sbom",
  "sla",
  "sop",
  "ui",
  "uuid",
]);

/** A word of three to five letters with no vowel (`lgv`, `sql`, `pdf`, `html`) is an abbreviation. */
const isAcronym = (word: string) => ACRONYMS.has(word) || /^[b-df-hj-np-tv-xz]{3,5}$/.test(word);

/**
 * `lgv_troubleshooting` → "LGV troubleshooting", `responseText` → "Response text",
 * `phi-access-log` → "PHI access log": words split at `_`, `-` and case changes, in sentence
 * case, abbreviations in capitals.
 */
export function readableName(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .replace(/[_\-\s]+/g, " ")
    .trim()
    .toLowerCase()
    .split(" ")
    .filter(Boolean);
  if (words.length === 0) return key;
  const out = words.map((word) => (isAcronym(word) ? word.toUpperCase() : word));
  out[0] = out[0][0].toUpperCase() + out[0].slice(1);
  return out.join(" ");
}

/** A name written as a slug (`lgv-troubleshooting`, `site_survey_2024`): no spaces, joined by `_` or `-`. */
export function looksLikeSlug(name: string): boolean {
  return !/\s/.test(name) && /[_-]/.test(name);
}
