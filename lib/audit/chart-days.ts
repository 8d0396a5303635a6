const DAY_MS = 86_400_000;

/** Whole UTC days a chart covers: `first` and `last` as `YYYY-MM-DD`, and the same span in epoch ms. */
export interface ChartDays {
  first: string;
  last: string;
  /** Midnight UTC starting `first`. */
  fromMs: number;
  /** Midnight UTC ending `last` (exclusive). */
  toMs: number;
}

/** The UTC day (`YYYY-MM-DD`) of an instant. */
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The whole UTC days from `from`'s to `to`'s: a chart's bars are days, never parts of one. */
export function chartDaysOf(range: { from: number; to: number }): ChartDays {
  const first = dayOf(range.from);
  const last = dayOf(Math.max(range.from, range.to));
  return { first, last, fromMs: Date.parse(`${first}T00:00:00Z`), toMs: Date.parse(`${last}T00:00:00Z`) + DAY_MS };
}
