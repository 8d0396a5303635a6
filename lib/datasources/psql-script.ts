// A reader for the scripts psql runs: statements split where psql would split them, `COPY … FROM
// stdin` with its data block, and backslash meta-commands. Drivers (PGlite included) take one
// statement at a time and know nothing of `\c` or `\.`, so the sample databases cannot be fed to
// them as files.

/** One thing a psql script asks for, in order. `line` is where it starts (1-based). */
export type ScriptItem =
  | { kind: "statement"; sql: string; line: number }
  | { kind: "copy"; sql: string; data: string; line: number }
  | { kind: "meta"; command: string; args: string; line: number };

type Quote =
  | { kind: "none" }
  | { kind: "single"; backslashes: boolean }
  | { kind: "double" }
  | { kind: "dollar"; tag: string }
  | { kind: "block"; depth: number };

const COPY_FROM_STDIN = /^\s*copy\b[\s\S]*\bfrom\s+stdin\b/i;
const DOLLAR_TAG = /^\$([A-Za-z_\u0080-\uffff][\w\u0080-\uffff]*)?\$/;

/**
 * Splits a script into statements, COPY blocks and meta-commands. It tracks what makes a `;`
 * not the end of a statement — single-quoted strings (with E'' backslash escapes), quoted
 * identifiers, dollar quotes with any tag, nested block comments and line comments — and only
 * reads a line starting with `\` as a meta-command when no statement is open, which is how the
 * dumps psql loads are written. Line comments are kept inside a statement (they are harmless
 * there) but a statement made only of comments is not emitted.
 */
export function* readPsqlScript(text: string): Generator<ScriptItem> {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  let quote: Quote = { kind: "none" };
  let buffer = "";
  // Whether the buffer holds only whitespace, kept as it grows: trimming a statement of many
  // thousand lines at each of its lines made loading Chinook's INSERTs quadratic.
  let blank = true;
  let start = 0;
  let copy = null as { sql: string; line: number; data: string[] } | null;

  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    if (copy) {
      // A COPY's data ends at a line holding only `\.`; the lines between are rows, verbatim.
      if (line === "\\.") {
        yield {
          kind: "copy",
          sql: copy.sql,
          data: copy.data.length ? `${copy.data.join("\n")}\n` : "",
          line: copy.line,
        };
        copy = null;
      } else copy.data.push(line);
      continue;
    }
    if (quote.kind === "none" && blank && line.trimStart().startsWith("\\")) {
      const [command, ...rest] = line.trim().split(/\s+/);
      yield { kind: "meta", command, args: rest.join(" ").replace(/;$/, ""), line: index + 1 };
      buffer = "";
      blank = true;
      continue;
    }
    if (blank) start = index + 1;
    let i = 0;
    let from = 0;
    while (i < line.length) {
      const ch = line[i];
      switch (quote.kind) {
        case "none": {
          if (ch === "-" && line[i + 1] === "-") {
            i = line.length;
            continue;
          }
          if (ch === "/" && line[i + 1] === "*") {
            quote = { kind: "block", depth: 1 };
            i += 2;
            continue;
          }
          if (ch === "'") {
            const prefix = line[i - 1];
            const escaped = (prefix === "E" || prefix === "e") && !/[\w$]/.test(line[i - 2] ?? "");
            quote = { kind: "single", backslashes: escaped };
          } else if (ch === '"') quote = { kind: "double" };
          else if (ch === "$" && !/[\w$]/.test(line[i - 1] ?? "")) {
            const tag = DOLLAR_TAG.exec(line.slice(i));
            if (tag) {
              quote = { kind: "dollar", tag: tag[0] };
              i += tag[0].length;
              continue;
            }
          } else if (ch === ";") {
            const statement = (buffer + line.slice(from, i)).trim();
            buffer = "";
            blank = true;
            from = i + 1;
            if (hasCode(statement)) {
              const line = codeLine(statement, start);
              if (COPY_FROM_STDIN.test(stripComments(statement))) copy = { sql: statement, line, data: [] };
              else yield { kind: "statement", sql: statement, line };
            }
            start = index + 1;
            if (copy) {
              // The data starts on the next line; anything after the `;` is not SQL.
              i = line.length;
              continue;
            }
          }
          i++;
          continue;
        }
        case "single":
          if (quote.backslashes && ch === "\\") i += 2;
          else if (ch === "'") {
            if (line[i + 1] === "'") i += 2;
            else {
              quote = { kind: "none" };
              i++;
            }
          } else i++;
          continue;
        case "double":
          if (ch === '"') {
            if (line[i + 1] === '"') i += 2;
            else {
              quote = { kind: "none" };
              i++;
            }
          } else i++;
          continue;
        case "dollar":
          if (line.startsWith(quote.tag, i)) {
            i += quote.tag.length;
            quote = { kind: "none" };
          } else i++;
          continue;
        case "block":
          if (ch === "*" && line[i + 1] === "/") {
            quote = quote.depth === 1 ? { kind: "none" } : { kind: "block", depth: quote.depth - 1 };
            i += 2;
          } else if (ch === "/" && line[i + 1] === "*") {
            quote = { kind: "block", depth: quote.depth + 1 };
            i += 2;
          } else i++;
          continue;
      }
    }
    if (!copy) {
      const rest = line.slice(from);
      buffer += `${rest}\n`;
      if (blank && rest.trim() !== "") blank = false;
    }
  }
  if (copy) throw new Error(`The COPY starting on line ${copy.line} has no terminating \\. line.`);
  const rest = buffer.trim();
  // psql runs an unterminated last statement too.
  if (hasCode(rest)) yield { kind: "statement", sql: rest, line: codeLine(rest, start) };
}

/** The line a statement's code starts on, past the comments that lead it. */
function codeLine(statement: string, start: number): number {
  const lead = statement.slice(0, statement.length - stripComments(statement).length);
  return start + (lead.match(/\n/g)?.length ?? 0);
}

/** Whether a piece of SQL holds anything but comments and whitespace. */
function hasCode(sql: string): boolean {
  return stripComments(sql).trim() !== "";
}

/** Leading comments removed (the only place comments matter for classifying a statement). */
export function stripComments(sql: string): string {
  let rest = sql;
  for (;;) {
    const trimmed = rest.trimStart();
    if (trimmed.startsWith("--")) {
      const end = trimmed.indexOf("\n");
      rest = end === -1 ? "" : trimmed.slice(end + 1);
    } else if (trimmed.startsWith("/*")) {
      const end = closingOfBlock(trimmed);
      rest = end === -1 ? "" : trimmed.slice(end);
    } else return trimmed;
  }
}

function closingOfBlock(text: string): number {
  let depth = 0;
  for (let i = 0; i < text.length - 1; i++) {
    if (text[i] === "/" && text[i + 1] === "*") {
      depth++;
      i++;
    } else if (text[i] === "*" && text[i + 1] === "/") {
      depth--;
      i++;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}
