// Reading a reference query the way sql-eval does (shared/datasets/sql-eval/README.md, "How the
// reference answers are compared"): several statements separated by `;` are each acceptable,
// and a list in braces such as `{name, id}` means any non-empty subset of those columns is.
// `GROUP BY {}` groups by whichever subset was chosen (defog-ai/sql-eval `get_all_minimal_queries`).

/** Every statement a reference accepts, with its brace lists expanded. */
export function expandReference(reference: string): string[] {
  return splitStatements(reference).flatMap(expandBraces);
}

/** Splits on `;` outside quotes, dropping empty statements. */
function splitStatements(text: string): string[] {
  const statements: string[] = [];
  let current = "";
  let quote: string | null = null;
  for (const ch of text) {
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === ";") {
      statements.push(current);
      current = "";
      continue;
    }
    current += ch;
  }
  statements.push(current);
  return statements.map((s) => s.trim()).filter(Boolean);
}

/** The first non-empty brace list (the column choice) expands to all its non-empty subsets. */
function expandBraces(statement: string): string[] {
  const match = /\{([^{}]+)\}/.exec(statement);
  if (!match) return [statement];
  const options = match[1].split(",").map((c) => c.trim());
  const left = statement.slice(0, match.index);
  const right = statement.slice(match.index + match[0].length);
  const out: string[] = [];
  for (let mask = 1; mask < 1 << options.length; mask++) {
    const chosen = options.filter((_, i) => mask & (1 << i)).join(", ");
    out.push(`${left}${chosen}${right.replaceAll(/GROUP BY \{\}/gi, `GROUP BY ${chosen}`)}`);
  }
  return out;
}
