import type { QuestionIntent } from "./intent";
import { wordsOf } from "./words";

// The columns a question asks to be shown ("What's the name and rating of …", "Give the names of
// the conferences and their corresponding number of publications"): each must be something the
// answer has — the group's labels, the figure, the listed rows' labels — or a column of the
// listed rows, which the answer then adds. A column the answer cannot show declines the draft:
// an answer missing what was asked for answers another question.

export interface ShownHelpers {
  tableWords(key: string): string[];
  labelWords(key: string): string[];
  columns(key: string): string[];
}

interface Shape {
  subject: string;
  group: { key: string; column: string | null } | null;
  measure: { key: string; column: string } | null;
  /** Tables a join reaches from the subject. */
  near: readonly string[];
}

const FIGURE = ["number", "count", "total", "sum", "average", "avg", "mean", "amount", "value"];

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((w) => b.includes(w)) && b.every((w) => a.includes(w));

/** The columns to add (of the subject) and the words the shown items account for; or why not. */
export function shownColumns(
  intent: QuestionIntent,
  d: Shape,
  h: ShownHelpers,
): { columns: { key: string; column: string }[]; words: string[] } | string {
  const columns: { key: string; column: string }[] = [];
  const words: string[] = [];
  for (const item of intent.returns ?? []) {
    const said = wordsOf(item);
    if (!said.length) continue;
    const within = (pool: readonly string[]) => said.every((w) => pool.includes(w));
    const subjectWords = h.tableWords(d.subject);
    const hasFigure = intent.shape === "count" || intent.measure !== null;
    const figurePool = [
      ...FIGURE,
      ...subjectWords,
      ...(d.measure ? [...wordsOf(d.measure.column), ...h.tableWords(d.measure.key)] : []),
    ];
    if (hasFigure && said.some((w) => FIGURE.includes(w) || intent.measure?.words.includes(w)) && within(figurePool)) {
      words.push(...said);
      continue;
    }
    if (d.group) {
      const pool = [
        ...h.tableWords(d.group.key),
        ...(d.group.column ? wordsOf(d.group.column) : h.labelWords(d.group.key)),
        "name",
      ];
      if (within(pool)) {
        words.push(...said);
        continue;
      }
    }
    if (intent.shape === "list") {
      if (within([...subjectWords, ...h.labelWords(d.subject)])) {
        words.push(...said);
        continue;
      }
      // A column of the listed rows, named by its own words ("food type" is `food_type`).
      const own = said.filter((w) => !subjectWords.includes(w));
      const found = h.columns(d.subject).filter((c) => {
        const cw = wordsOf(c).filter((w) => !subjectWords.includes(w));
        return own.length > 0 && sameSet(cw, own);
      });
      if (found.length === 1) {
        columns.push({ key: d.subject, column: found[0] });
        words.push(...said);
        continue;
      }
      // Else the one column of a joined table its words name whole ("meal description").
      const joined = d.near
        .filter((key) => key !== d.subject)
        .flatMap((key) => {
          const tableWords = h.tableWords(key);
          const rest = said.filter((w) => !tableWords.includes(w));
          return h
            .columns(key)
            .filter((c) => rest.length > 0 && sameSet(wordsOf(c), rest))
            .map((column) => ({ key, column, words: [...said, ...tableWords] }));
        });
      if (found.length === 0 && joined.length === 1) {
        columns.push({ key: joined[0].key, column: joined[0].column });
        words.push(...joined[0].words);
        continue;
      }
    }
    return `the answer has no column for "${item}"`;
  }
  return { columns, words };
}
