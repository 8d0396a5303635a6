import { citedNumbers, splitSentences } from "@/lib/engine";

/** A sentence of an answer with the citations that belong to it. */
export interface Claim {
  /** The sentence without its citation markers. */
  text: string;
  citations: number[];
  kind: "sentence" | "heading" | "list-item" | "table-row";
  /** Where the sentence and its markers are in the answer: removing [start, end) removes both. */
  start: number;
  end: number;
}

/**
 * The answer's sentences, each with its citations. Extractive answers write a citation after
 * the sentence's full stop ("… the predicate. [2]"), where sentence splitting puts it at the
 * start of the next one; as the engine's confidence reads them, such leading markers belong to
 * the sentence before.
 */
export function claimsOf(answer: string): Claim[] {
  const claims: Claim[] = [];
  for (const unit of splitSentences(answer)) {
    const leading = /^(?:\[\d{1,4}\]\s*)+/.exec(unit.text)?.[0] ?? "";
    const previous = claims.at(-1);
    if (leading && previous) {
      previous.citations = [...new Set([...previous.citations, ...citedNumbers(leading)])].sort((a, b) => a - b);
      previous.end = unit.start + leading.trimEnd().length;
    }
    const body = unit.text.slice(leading.length);
    if (!body.trim()) continue;
    claims.push({
      text: body.replace(/\s*\[\d{1,4}\]/g, "").trim(),
      citations: citedNumbers(body),
      kind: unit.kind,
      start: unit.start + leading.length,
      end: unit.end,
    });
  }
  return claims;
}

/** The answer without these claims (and their markers), its spacing tidied. */
export function withoutClaims(answer: string, drop: Claim[]): string {
  let out = answer;
  for (const claim of [...drop].sort((a, b) => b.start - a.start))
    out = out.slice(0, claim.start) + out.slice(claim.end);
  return out
    .replace(/[ \t]{2,}/g, " ")
    .replace(/ +\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
