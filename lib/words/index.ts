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

/** The words of an identifier, lower case but for abbreviations: `lgv_troubleshooting` → "LGV troubleshooting". */
function phrase(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .replace(/[_\-\s]+/g, " ")
    .trim()
    .toLowerCase()
    .split(" ")
    .filter(Boolean)
    .map((word) => (isAcronym(word) ? word.toUpperCase() : word))
    .join(" ");
}

const capitalized = (text: string) => (text ? text[0].toUpperCase() + text.slice(1) : text);

/**
 * `lgv_troubleshooting` → "LGV troubleshooting", `responseText` → "Response text",
 * `phi-access-log` → "PHI access log": words split at `_`, `-` and case changes, in sentence
 * case, abbreviations in capitals.
 */
export function readableName(key: string): string {
  return capitalized(phrase(key)) || key;
}

/** `order` → `orders`, `category` → `categories`, `box` → `boxes`: enough for a column's noun. */
function plural(noun: string): string {
  if (/[^aeiou]y$/.test(noun)) return `${noun.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/.test(noun)) return `${noun}es`;
  return `${noun}s`;
}

const AGGREGATE_WORDS: Record<string, string> = { sum: "total", avg: "average", min: "lowest", max: "highest" };

/**
 * A result column in words, reading the analyst's aggregate names: `sum_amount` → "Total
 * amount", `sum_total` → "Total", `avg_length` → "Average length", `count_film_id` → "Count of
 * film ID", `order_count` → "Number of orders"; any other column as `readableName` has it.
 */
export function columnTitle(column: string): string {
  const lower = column.toLowerCase();
  const aggregate = /^(sum|avg|min|max|count)_(.+)$/.exec(lower);
  if (aggregate) {
    const [, fn, rest] = aggregate;
    const what = phrase(rest);
    if (fn === "count") return `Count of ${what}`;
    const word = AGGREGATE_WORDS[fn];
    return capitalized(what.split(" ")[0] === word ? what : `${word} ${what}`);
  }
  const counted = /^(.+)_count$/.exec(lower);
  if (counted) {
    const words = phrase(counted[1]).split(" ");
    const last = words.length - 1;
    words[last] = /^[A-Z]+$/.test(words[last]) ? `${words[last]}s` : plural(words[last]);
    return `Number of ${words.join(" ")}`;
  }
  return readableName(column);
}

/** A title inside a sentence: "Total amount" → "total amount"; "LGV troubleshooting" keeps its capitals. */
export function inSentence(title: string): string {
  const first = title.split(" ")[0];
  return !title || /^[A-Z0-9]{2,}$/.test(first) ? title : title[0].toLowerCase() + title.slice(1);
}

/** `columnTitle` inside a sentence: "Bars show total amount by name." */
export const columnWords = (column: string) => inSentence(columnTitle(column));

/**
 * What the label columns of a row name together: a person's first and last name are their
 * name ("Mary Smith" under "Name"), any other columns as their own words.
 */
export function labelTitle(columns: readonly string[]): string {
  const lower = columns.map((c) => c.toLowerCase().replace(/[_\s-]/g, ""));
  if (lower.includes("firstname") && lower.includes("lastname")) return "Name";
  return columns.map((c, i) => (i === 0 ? columnTitle(c) : columnWords(c))).join(", ");
}

/** A name written as a slug (`lgv-troubleshooting`, `site_survey_2024`): no spaces, joined by `_` or `-`. */
export function looksLikeSlug(name: string): boolean {
  return !/\s/.test(name) && /[_-]/.test(name);
}
