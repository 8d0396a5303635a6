import { refuse } from "./refusals";
import { type AstNode, isNode } from "./tree";

export interface AppliedLimit {
  rows: number;
  /** Whether the statement's own LIMIT stood, had none, or asked for more than the source allows. */
  action: "kept" | "added" | "clamped";
}

const count = (rows: number): AstNode => ({ type: "number", value: rows });

/**
 * Bounds the rows the statement returns, on its tree: a LIMIT within `rowLimit` stays; a
 * missing one is added; a larger one, `LIMIT ALL`, an expression or a parameter becomes
 * `rowLimit`. An OFFSET is kept (it skips rows; it never adds any).
 *
 * A set operation's LIMIT is on its last member, which the serialiser prints after the whole
 * UNION. When that member is in parentheses the LIMIT would bound only that member, so such
 * statements are refused rather than wrapped.
 */
export function enforceRowLimit(ast: AstNode, rowLimit: number): AppliedLimit {
  let last = ast;
  const members = [ast];
  while (isNode(last._next)) {
    last = last._next;
    members.push(last);
  }
  const parenthesised = members.some((member) => member.parentheses_symbol === true);
  const fromSetOperation =
    Array.isArray(ast.from) &&
    ast.from.some(
      (item) => isNode(item) && typeof item.join === "string" && /union|intersect|except|minus/i.test(item.join),
    );
  if ((members.length > 1 && parenthesised) || fromSetOperation) {
    refuse(
      "sql_unsupported",
      "A UNION / INTERSECT / EXCEPT with parenthesised members cannot be bounded; write the members without parentheses.",
    );
  }

  const limit = isNode(last.limit) ? last.limit : null;
  const values = limit && Array.isArray(limit.value) ? (limit.value as unknown[]) : [];
  const separator = typeof limit?.seperator === "string" ? limit.seperator : "";
  if (values.length === 0) {
    last.limit = { seperator: "", value: [count(rowLimit)] };
    return { rows: rowLimit, action: "added" };
  }
  // `LIMIT offset, count` (MySQL), `LIMIT count OFFSET offset`, or `OFFSET offset` alone.
  const countAt = separator === "," ? 1 : 0;
  if (separator === "offset" && values.length === 1) {
    last.limit = { seperator: "offset", value: [count(rowLimit), values[0]] };
    return { rows: rowLimit, action: "added" };
  }
  const current = values[countAt];
  if (isNode(current) && current.type === "number" && typeof current.value === "number") {
    if (Number.isInteger(current.value) && current.value >= 0 && current.value <= rowLimit) {
      return { rows: current.value, action: "kept" };
    }
  }
  values[countAt] = count(rowLimit);
  return { rows: rowLimit, action: "clamped" };
}
