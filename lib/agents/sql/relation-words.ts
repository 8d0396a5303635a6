import type { JoinPathFinder } from "@/lib/joingraph";
import type { JoinGraph } from "@/lib/joingraph/contract";
import { normaliseValue, type ValueIndex } from "./values";
import { wordsOf } from "./words";

// Words a question uses for how its tables relate, and for the units and names of its values,
// accounted for by what the schema says of itself. "publications presented at each conference"
// joins publication to conference through `publication.cid`, described as "the conference where
// the publication was presented": the verb names that relationship and nothing else, so it is
// accounted for by the description of a column the plan joins or uses. A verb no such
// description carries stays unplaced, and the question is declined as before.

/** A word's stem, enough to tell "arrive", "arrival" and "arrived" are one word. */
export function stemOf(word: string): string {
  const w = word.toLowerCase();
  for (const suffix of ["ations", "ation", "ings", "ing", "ures", "ure", "als", "al", "ed", "es", "s", "e"]) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 4) return w.slice(0, -suffix.length);
  }
  return w;
}

const PREPOSITIONS = new Set(["at", "in", "on", "by", "from", "to", "with", "for", "into", "onto", "under"]);
const BEFORE_VERB = new Set(["do", "does", "did", "that", "which", "who", "can", "could", "will", "would", "to"]);

/** The question's tokens as written, lower case, with their `wordsOf` reading. */
function tokensOf(question: string): { raw: string; word: string | undefined }[] {
  return question
    .toLowerCase()
    .split(/[^a-z0-9'-]+/)
    .filter(Boolean)
    .map((raw) => ({ raw, word: wordsOf(raw)[0] }));
}

/**
 * Whether the token at `i` is used as a verb: a participle or gerund ("presented", "serving"),
 * or a bare verb between a relative or auxiliary and what follows ("flights that depart from").
 */
function verbAt(tokens: readonly { raw: string }[], i: number): boolean {
  const raw = tokens[i].raw;
  if (/(?:ed|ing)$/.test(raw) && raw.length > 4) return true;
  const next = tokens[i + 1]?.raw;
  const before = tokens[i - 1]?.raw;
  return (next !== undefined && PREPOSITIONS.has(next)) || (before !== undefined && BEFORE_VERB.has(before));
}

/** The column descriptions (and table comments) a plan over `tables` reads or joins through. */
export function planDescriptions(
  graph: JoinGraph,
  finder: JoinPathFinder,
  subject: string,
  used: readonly { key: string; column?: string | null }[],
): string[] {
  const out: string[] = [];
  const comment = (key: string, column: string) =>
    graph.tables[key]?.columns.find((c) => c.name === column)?.comment ?? null;
  const tables = new Set([subject, ...used.map((u) => u.key)]);
  for (const u of used) if (u.column) out.push(comment(u.key, u.column) ?? "");
  for (const key of tables) {
    const t = graph.tables[key];
    out.push(t?.comment ?? "", t?.description ?? "");
    if (key === subject) continue;
    for (const r of finder.findShortestPath(subject, key) ?? []) {
      for (const p of r.column_pairs) {
        out.push(comment(r.from_table, p.from_column) ?? "", comment(r.to_table, p.to_column) ?? "");
      }
    }
  }
  return out.filter(Boolean);
}

/**
 * The `unplaced` words that are verbs naming a relationship the plan's own descriptions state
 * ("presented", "depart", "served"): those the plan accounts for.
 */
export function relationVerbs(
  question: string,
  unplaced: readonly string[],
  descriptions: readonly string[],
): string[] {
  if (!unplaced.length || !descriptions.length) return [];
  const described = new Set(
    descriptions.flatMap((d) =>
      d
        .toLowerCase()
        .split(/[^a-z]+/)
        .filter(Boolean)
        .map(stemOf),
    ),
  );
  const tokens = tokensOf(question);
  const out: string[] = [];
  tokens.forEach((t, i) => {
    if (!t.word || !unplaced.includes(t.word) || out.includes(t.word)) return;
    if (verbAt(tokens, i) && described.has(stemOf(t.raw))) out.push(t.word);
  });
  return out;
}

/** Units a number is given in, with the words a column's description spells them with. */
const UNITS: Record<string, string[]> = {
  mph: ["miles per hour", "mph"],
  kph: ["kilometers per hour", "kilometres per hour", "km/h"],
  kmh: ["kilometers per hour", "kilometres per hour", "km/h"],
  km: ["kilometer", "kilometre"],
  mi: ["mile"],
  mile: ["mile"],
  ft: ["feet", "foot"],
  feet: ["feet", "foot"],
  foot: ["feet", "foot"],
  lb: ["pound"],
  lbs: ["pound"],
  pound: ["pound"],
  kg: ["kilogram"],
  kilogram: ["kilogram"],
  min: ["minute"],
  mins: ["minute"],
  minute: ["minute"],
  sec: ["second"],
  second: ["second"],
  hr: ["hour"],
  hrs: ["hour"],
  hour: ["hour"],
  day: ["day"],
  usd: ["dollar", "usd", "$"],
  dollar: ["dollar", "usd", "$"],
  percent: ["percent", "%"],
};

/**
 * The unit word right after a compared number ("over 200 mph") when the compared column's name or
 * description gives its values in that unit ("in miles per hour"): a unit the column does not
 * state stays unplaced, since the number may then mean another scale.
 */
export function unitWords(
  question: string,
  unplaced: readonly string[],
  compared: readonly { value: string; value2?: string; description: string }[],
): string[] {
  const out: string[] = [];
  for (const c of compared) {
    for (const value of [c.value, c.value2]) {
      if (value === undefined) continue;
      const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      const m = new RegExp(`(?:^|[^\\d.])${escaped}\\s*([a-z]+)\\b`, "i").exec(question);
      if (!m) continue;
      const raw = m[1].toLowerCase();
      const word = wordsOf(raw)[0];
      const spelled = UNITS[raw] ?? (word ? UNITS[word] : undefined);
      if (!word || !spelled || !unplaced.includes(word)) continue;
      const text = c.description.toLowerCase();
      if (spelled.some((s) => text.includes(s))) out.push(word);
    }
  }
  return out;
}

/** A value's name before its code in parentheses: "Chicago (ORD)", "Los Angeles (LAX)". */
export interface Gloss {
  /** The name as written. */
  name: string;
  /** The code in the parentheses. */
  code: string;
  /** The name's words, as `wordsOf` reads them. */
  words: string[];
}

const GLOSS = /((?:[A-Z][\p{L}.'’-]*\s+){0,3}[A-Z][\p{L}.'’-]*)\s*\(\s*([A-Za-z0-9]{2,8})\s*\)/gu;

export function glossesOf(question: string): Gloss[] {
  return [...question.matchAll(GLOSS)].map((m) => ({ name: m[1], code: m[2], words: wordsOf(m[1]) }));
}

/** The question with each gloss left out, its code in its place: "from LAX to ORD". */
export function withoutGlosses(question: string): string {
  return question.replace(GLOSS, (_, _name: string, code: string) => code);
}

/**
 * Whether a gloss's name belongs to what its code names: a value (or the start of one: "New
 * York" for "New York City") of the code's own table, of a table joined through the code's
 * column, or of a table the code's column names ("from_airport", "the departure airport" →
 * `airport`). A name from elsewhere is no gloss, and is read on its own.
 */
export function glossHolds(
  gloss: Gloss,
  code: { table: string; column: string },
  graph: JoinGraph,
  index: ValueIndex,
): boolean {
  const name = normaliseValue(gloss.name);
  if (!name) return false;
  const column = graph.tables[code.table]?.columns.find((c) => c.name === code.column);
  const said = new Set(wordsOf(`${code.column} ${column?.comment ?? ""}`));
  const tables = new Set([code.table]);
  for (const r of graph.relationships) {
    if (r.from_table === code.table && r.column_pairs.some((p) => p.from_column === code.column))
      tables.add(r.to_table);
    if (r.to_table === code.table && r.column_pairs.some((p) => p.to_column === code.column)) tables.add(r.from_table);
  }
  for (const [key, t] of Object.entries(graph.tables)) {
    const words = wordsOf(t.name);
    if (t.schema === graph.tables[code.table]?.schema && words.length && words.every((w) => said.has(w)))
      tables.add(key);
  }
  for (const [value, hits] of index.byValue) {
    if (value !== name && !value.startsWith(`${name} `)) continue;
    if (hits.some((h) => tables.has(h.table))) return true;
  }
  return false;
}

/**
 * Whether a verb in the two words before `mention` ("arrive at", "departing from") is stated by
 * `description` ("the arrival airport"): the verb says which of several columns holds the value.
 */
export function verbBefore(question: string, mention: string, description: string): boolean {
  const at = question.indexOf(mention);
  if (at <= 0 || !description) return false;
  const lead = tokensOf(question.slice(0, at)).slice(-2);
  const described = new Set(
    description
      .toLowerCase()
      .split(/[^a-z]+/)
      .filter(Boolean)
      .map(stemOf),
  );
  return lead.some(
    (t, i) => verbAt(lead, i) && !PREPOSITIONS.has(t.raw) && stemOf(t.raw).length >= 4 && described.has(stemOf(t.raw)),
  );
}
