import type { SqlDialect } from "./dialect";

/**
 * What the parser's tree does not keep about the text: which names were written in double
 * quotes (PostgreSQL's tree has the same `Employees` for `Employees` and `"Employees"`, and only
 * the second keeps its case on the server), whether MySQL would run a comment (`/*! … *\/`), and
 * the bare words in order (to name what a statement the parser cannot read was trying to do).
 *
 * It never decides that a statement is safe and never edits it: everything that runs is the
 * parser's tree, serialised again. A scanning mistake can only misname a refusal or keep a
 * name's case.
 */
export interface LexicalScan {
  /** Names written in double quotes (PostgreSQL) or backticks (MySQL), unescaped. */
  quoted: Set<string>;
  /** Names and keywords written bare, as written. */
  bare: Set<string>;
  /** The bare words, lower-cased, in order. */
  words: string[];
  /** A MySQL comment the server executes (`/*!…*\/`, `/*M!…*\/`) or an optimizer hint (`/*+…*\/`). */
  executableComment: string | null;
  /** Something other than whitespace and comments. */
  hasContent: boolean;
}

const WORD_START = /[A-Za-z_\u0080-\uffff]/;
const WORD_PART = /[A-Za-z0-9_$\u0080-\uffff]/;

export function scanSql(sql: string, dialect: SqlDialect): LexicalScan {
  const postgres = dialect === "postgresql";
  const scan: LexicalScan = {
    quoted: new Set(),
    bare: new Set(),
    words: [],
    executableComment: null,
    hasContent: false,
  };
  const n = sql.length;
  let i = 0;

  /** The end of a quoted run opened at `start` by `quote`; doubled quotes (and backslashes where they escape) stay inside. */
  const closeQuote = (start: number, quote: string, backslashEscapes: boolean): number => {
    let j = start + 1;
    while (j < n) {
      const c = sql[j];
      if (backslashEscapes && c === "\\") j += 2;
      else if (c === quote && sql[j + 1] === quote) j += 2;
      else if (c === quote) return j + 1;
      else j += 1;
    }
    return n;
  };

  while (i < n) {
    const c = sql[i];
    const next = sql[i + 1];
    if (/\s/.test(c)) {
      i += 1;
    } else if (c === "-" && next === "-") {
      const end = sql.indexOf("\n", i);
      i = end === -1 ? n : end + 1;
    } else if (c === "#" && !postgres) {
      const end = sql.indexOf("\n", i);
      i = end === -1 ? n : end + 1;
    } else if (c === "/" && next === "*") {
      if (!postgres && (sql[i + 2] === "!" || sql[i + 2] === "+" || sql.startsWith("M!", i + 2))) {
        scan.executableComment ??= sql.slice(i, Math.min(n, i + 40));
      }
      // PostgreSQL comments nest; MySQL's end at the first `*/`.
      let depth = 1;
      let j = i + 2;
      while (j < n && depth > 0) {
        if (sql[j] === "*" && sql[j + 1] === "/") {
          depth -= 1;
          j += 2;
        } else if (postgres && sql[j] === "/" && sql[j + 1] === "*") {
          depth += 1;
          j += 2;
        } else j += 1;
      }
      i = j;
    } else if (c === "'") {
      scan.hasContent = true;
      // PostgreSQL strings are standard (a backslash is a character) unless written E'…'.
      const prefix = sql[i - 1];
      const escapes = !postgres || ((prefix === "e" || prefix === "E") && !WORD_PART.test(sql[i - 2] ?? " "));
      i = closeQuote(i, "'", escapes);
    } else if (c === '"' && !postgres) {
      // Without ANSI_QUOTES a double-quoted run is a string in MySQL.
      scan.hasContent = true;
      i = closeQuote(i, '"', true);
    } else if ((c === '"' && postgres) || (c === "`" && !postgres)) {
      scan.hasContent = true;
      const end = closeQuote(i, c, false);
      scan.quoted.add(sql.slice(i + 1, end - 1).replaceAll(c + c, c));
      i = end;
    } else if (c === "$" && postgres && /[A-Za-z_$]/.test(next ?? "")) {
      // A dollar-quoted string: `$tag$ … $tag$` (a `$1` parameter starts with a digit).
      scan.hasContent = true;
      const tag = /^\$[A-Za-z_]?[A-Za-z0-9_]*\$/.exec(sql.slice(i))?.[0];
      if (tag) {
        const end = sql.indexOf(tag, i + tag.length);
        i = end === -1 ? n : end + tag.length;
      } else i += 1;
    } else if (WORD_START.test(c)) {
      scan.hasContent = true;
      let j = i + 1;
      while (j < n && WORD_PART.test(sql[j])) j += 1;
      const word = sql.slice(i, j);
      scan.bare.add(word);
      scan.words.push(word.toLowerCase());
      i = j;
    } else {
      scan.hasContent = true;
      i += 1;
    }
  }
  return scan;
}
