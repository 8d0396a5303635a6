/**
 * Citation markers in visible answer text. An answer cites passage n as `[n]`; models also
 * write lists (`[1, 3]`) and ranges (`[2-4]`). The guard rewrites every marker to the one form
 * the UI reads, `[1][3]`, keeps only the numbers of passages that were given, and drops a
 * marker left with none (with the spaces before it), so no number ever reaches the user
 * without its passage — also while the answer streams, whatever the token splits.
 */

/** Ranges longer than this are not citations (nobody cites 40 passages at once). */
const MAX_RANGE = 20;

// A complete marker: numbers and ranges separated by commas or semicolons.
const MARKER = /\[\s*(\d{1,4}(?:\s*[-–]\s*\d{1,4})?(?:\s*[,;]\s*\d{1,4}(?:\s*[-–]\s*\d{1,4})?)*)\s*\]/y;

// What may still grow into a MARKER once more text arrives (anchored at a `[` up to the end).
const MARKER_START = /\[\s*(?:\d{1,4}\s*(?:[-–,;]\s*(?:\d{1,4}\s*)?)*)?$/y;

/** Numbers a marker's inside names, in order, ranges expanded; null when it is no citation. */
function numbersOf(inside: string): number[] | null {
  const numbers: number[] = [];
  for (const item of inside.split(/[,;]/)) {
    const [from, to] = item.split(/[-–]/).map((s) => Number(s.trim()));
    if (to === undefined) numbers.push(from);
    else {
      if (to < from || to - from >= MAX_RANGE) return null;
      for (let n = from; n <= to; n++) numbers.push(n);
    }
  }
  return numbers;
}

export class CitationGuard {
  readonly #valid: ReadonlySet<number>;
  #held = "";
  /** Numbers the text used that name no passage, in order of appearance, once each. */
  readonly dangling: number[] = [];

  constructor(validNumbers: Iterable<number>) {
    this.#valid = new Set(validNumbers);
  }

  /** Feeds visible text; returns what can be shown now. */
  push(delta: string): string {
    return this.#scan(this.#held + delta, false);
  }

  /** Ends the text: a held piece that never became a marker is shown as it is. */
  end(): string {
    return this.#scan(this.#held, true);
  }

  #scan(buffer: string, final: boolean): string {
    this.#held = "";
    let out = "";
    let at = 0;
    while (at < buffer.length) {
      const open = buffer.indexOf("[", at);
      if (open === -1) {
        const rest = buffer.slice(at);
        // Trailing spaces wait: if a dropped marker follows, they go with it.
        const spaces = final ? "" : (rest.match(/[ \t]*$/)?.[0] ?? "");
        out += rest.slice(0, rest.length - spaces.length);
        this.#held = spaces;
        break;
      }
      const before = buffer.slice(at, open);
      MARKER.lastIndex = open;
      const marker = MARKER.exec(buffer);
      const numbers = marker ? numbersOf(marker[1]) : null;
      if (marker && numbers) {
        const kept = numbers.filter((n, i) => this.#valid.has(n) && numbers.indexOf(n) === i);
        for (const n of numbers) if (!this.#valid.has(n) && !this.dangling.includes(n)) this.dangling.push(n);
        out += kept.length > 0 ? before + kept.map((n) => `[${n}]`).join("") : before.replace(/[ \t]+$/, "");
        at = MARKER.lastIndex;
        continue;
      }
      MARKER_START.lastIndex = open;
      if (!final && !marker && MARKER_START.test(buffer)) {
        const spaces = before.match(/[ \t]*$/)?.[0] ?? "";
        out += before.slice(0, before.length - spaces.length);
        this.#held = spaces + buffer.slice(open);
        break;
      }
      out += `${before}[`;
      at = open + 1;
    }
    return out;
  }
}

/** The whole-text form: the text as the guard would show it, and the numbers it dropped. */
export function checkCitations(text: string, validNumbers: Iterable<number>): { text: string; dangling: number[] } {
  const guard = new CitationGuard(validNumbers);
  const shown = guard.push(text) + guard.end();
  return { text: shown, dangling: guard.dangling };
}

/** The passage numbers cited in checked text (`[n]` markers only), ascending, once each. */
export function citedNumbers(text: string): number[] {
  const found = new Set<number>();
  for (const m of text.matchAll(/\[(\d{1,4})\]/g)) found.add(Number(m[1]));
  return [...found].sort((a, b) => a - b);
}
