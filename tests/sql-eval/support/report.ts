// Tables of graded answers: correct / declined / wrong per database (or schema) and per
// category, and the seconds per answer.

import type { Graded, Verdict } from "./grade";

export interface Tally {
  n: number;
  correct: number;
  declined: number;
  wrong: number;
}

export function tally(graded: Graded[]): Tally {
  const count = (v: Verdict) => graded.filter((g) => g.verdict === v).length;
  return { n: graded.length, correct: count("correct"), declined: count("declined"), wrong: count("wrong") };
}

const pct = (part: number, whole: number) => (whole === 0 ? "–" : `${((100 * part) / whole).toFixed(1)} %`);

function rows(graded: Graded[], key: (g: Graded) => string): string[] {
  const groups = [...new Set(graded.map(key))].sort();
  const line = (name: string, t: Tally) =>
    `| ${name} | ${t.n} | ${t.correct} | ${t.declined} | ${t.wrong} | ${pct(t.correct, t.n)} | ${pct(t.wrong, t.n)} |`;
  return [
    "| | questions | correct | declined | wrong | correct % | wrong % |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...groups.map((g) => line(g, tally(graded.filter((x) => key(x) === g)))),
    line("**all**", tally(graded)),
  ];
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** A markdown section body: by database, by category, and the time per answer. */
export function accuracyTables(graded: Graded[], groupLabel: string): string[] {
  const seconds = graded.map((g) => g.seconds);
  return [
    `By ${groupLabel}:`,
    "",
    ...rows(graded, (g) => g.case.group),
    "",
    "By category:",
    "",
    ...rows(graded, (g) => g.case.category),
    "",
    `Seconds per answer (request to stream end): median ${percentile(seconds, 50).toFixed(3)}, p95 ${percentile(seconds, 95).toFixed(3)}, max ${Math.max(...seconds).toFixed(3)}.`,
  ];
}

/** The wrong answers, for reading what went wrong. */
export function wrongAnswers(graded: Graded[]): string[] {
  return graded
    .filter((g) => g.verdict === "wrong")
    .map((g) => `- [${g.case.group}/${g.case.category}] ${g.case.question} → ${g.sql?.replace(/\s+/g, " ")}`);
}

/** The declined questions with what the analyst said (printed with VIGIL_ACCURACY_DECLINES=1). */
export function declinedAnswers(graded: Graded[]): string[] {
  return graded
    .filter((g) => g.verdict === "declined")
    .map(
      (g) => `- [${g.case.group}/${g.case.category}] ${g.case.question} → ${g.said.replace(/\s+/g, " ").slice(0, 220)}`,
    );
}

/**
 * Why questions were declined, most frequent first: a word nothing placed ("could not place"),
 * a name no table or column matched, or a shape the offline engine does not read. Each word of a
 * "could not place" decline counts once, so the words that cost the most questions lead.
 */
export function declineCauses(graded: Graded[]): string[] {
  const counts = new Map<string, number>();
  const bump = (cause: string) => counts.set(cause, (counts.get(cause) ?? 0) + 1);
  for (const g of graded.filter((x) => x.verdict === "declined")) {
    const unplaced = /I could not place (.+?) in /.exec(g.said);
    if (unplaced) {
      for (const word of unplaced[1].matchAll(/"([^"]+)"/g)) bump(`unplaced word "${word[1]}"`);
      continue;
    }
    const matched = /(?:public|\w+): ([^.;]+?)(?:\.|;| Try)/.exec(g.said);
    if (/I could not match/.test(g.said) && matched) bump(matched[1].replace(/"[^"]*"/g, '"…"'));
    else if (/beyond what the offline engine/.test(g.said)) bump("a shape the offline engine does not read");
    else bump(g.said.slice(0, 60));
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([c, n]) => `- ${n} × ${c}`);
}

/** The correct answers (printed with VIGIL_ACCURACY_DECLINES=1, to see what a change gained or lost). */
export function correctAnswers(graded: Graded[]): string[] {
  return graded
    .filter((g) => g.verdict === "correct")
    .map((g) => `- [${g.case.group}/${g.case.category}] ${g.case.question}`);
}
