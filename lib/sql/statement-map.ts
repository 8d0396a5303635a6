import { columnName } from "./identifiers";
import { type AstNode, isNode, selectIn, textOf } from "./tree";

/** A table the statement reads, with the FROM item it came from (the rewrite edits that item). */
export interface TableSite {
  item: AstNode;
  schema: string | null;
  name: string;
  /** A reference to a CTE in scope rather than to a stored table. */
  cte: boolean;
}

/** Something a SELECT reads rows from, under the name its columns are qualified with. */
export interface Source {
  alias: string;
  kind: "table" | "cte" | "derived" | "function";
  table: TableSite | null;
  /** The columns a CTE or a derived table yields, when they can be told; null when they cannot. */
  columns: string[] | null;
}

export interface SelectScope {
  node: AstNode;
  parent: SelectScope | null;
  sources: Source[];
  /** Aliases its select list gives (usable in ORDER BY and GROUP BY). */
  outputNames: string[];
  /** Columns merged by JOIN … USING, which stay unqualified without being ambiguous. */
  usingColumns: string[];
}

export interface ColumnSite {
  node: AstNode;
  scope: SelectScope;
  qualifier: string | null;
  schemaQualifier: string | null;
  name: string;
  quoted: boolean;
}

export interface StatementMap {
  tables: TableSite[];
  columns: ColumnSite[];
  scopes: SelectScope[];
}

type CteScope = ReadonlyMap<string, string[] | null>;

/**
 * The statement's tables and columns, each with the SELECT it belongs to. CTE names are in
 * scope only where SQL puts them (the rest of their WITH list and the query it prefixes; their
 * own body when RECURSIVE): seeing a CTE where the server sees a table would let a reference
 * past the allowlist, while the reverse can only refuse or rewrite too much.
 */
export function mapStatement(ast: AstNode, postgres: boolean): StatementMap {
  const map: StatementMap = { tables: [], columns: [], scopes: [] };

  const mapSelect = (node: AstNode, parent: SelectScope | null, ctes: CteScope): SelectScope => {
    const scope: SelectScope = { node, parent, sources: [], outputNames: [], usingColumns: [] };
    map.scopes.push(scope);
    let visible = ctes;
    if (Array.isArray(node.with)) {
      const growing = new Map(ctes);
      for (const cte of node.with) {
        if (!isNode(cte)) continue;
        const name = textOf(cte.name);
        const body = selectIn(cte.stmt);
        if (name === null || body === null) continue;
        const inBody = new Map(growing);
        if (cte.recursive === true || node.with_recursive === true) inBody.set(name, null);
        const bodyScope = mapSelect(body, parent, inBody);
        const listed = Array.isArray(cte.columns) ? cte.columns.map(textOf) : null;
        const columns = listed?.every((c) => c !== null) ? (listed as string[]) : outputNames(bodyScope.node, postgres);
        growing.set(name, columns);
      }
      visible = growing;
    }
    const joins: AstNode[] = [];
    const fromItem = (item: unknown) => {
      if (!isNode(item)) return;
      if (Array.isArray(item.expr)) {
        for (const inner of item.expr) fromItem(inner);
      } else if (selectIn(item.expr)) {
        const child = mapSelect(selectIn(item.expr) as AstNode, scope, visible);
        const alias = textOf(item.as);
        if (alias)
          scope.sources.push({ alias, kind: "derived", table: null, columns: outputNames(child.node, postgres) });
      } else if (isNode(item.expr)) {
        expressions(item.expr, scope, visible);
        scope.sources.push({ alias: textOf(item.as) ?? "", kind: "function", table: null, columns: null });
      } else if (typeof item.table === "string") {
        const schema = textOf(item.db) ?? textOf(item.schema);
        const cte = schema === null && visible.has(item.table);
        const site: TableSite = { item, schema, name: item.table, cte };
        map.tables.push(site);
        scope.sources.push({
          alias: textOf(item.as) ?? item.table,
          kind: cte ? "cte" : "table",
          table: site,
          columns: cte ? (visible.get(item.table) ?? null) : null,
        });
      }
      joins.push(item);
      for (const name of Array.isArray(item.using) ? item.using : []) {
        const text = textOf(name);
        if (text) scope.usingColumns.push(text);
      }
    };
    for (const item of Array.isArray(node.from) ? node.from : []) fromItem(item);
    for (const item of joins) {
      if (item.on) expressions(item.on, scope, visible);
      if (item.tablesample) expressions(item.tablesample, scope, visible);
    }
    for (const [key, value] of Object.entries(node)) {
      if (key !== "with" && key !== "from" && key !== "_next") expressions(value, scope, visible);
    }
    scope.outputNames = namedOutputs(node);
    // A set operation's other members: same scope of CTEs, same enclosing query.
    if (isNode(node._next)) mapSelect(node._next, parent, visible);
    return scope;
  };

  const expressions = (value: unknown, scope: SelectScope, ctes: CteScope): void => {
    if (Array.isArray(value)) {
      for (const item of value) expressions(item, scope, ctes);
      return;
    }
    if (!isNode(value)) return;
    const select = selectIn(value);
    if (select) {
      mapSelect(select, scope, ctes);
      return;
    }
    if (value.type === "column_ref") {
      const column = columnName(value, postgres);
      if (column && !column.literal) {
        map.columns.push({
          node: value,
          scope,
          qualifier: textOf(value.table),
          schemaQualifier: textOf(value.schema) ?? textOf(value.db),
          name: column.name,
          quoted: column.quoted,
        });
      }
      return;
    }
    for (const child of Object.values(value)) {
      if (typeof child === "object" && child !== null) expressions(child, scope, ctes);
    }
  };

  mapSelect(ast, null, new Map());
  return map;
}

/** The names a SELECT's rows have, or null when a star or an unnamed expression hides some. */
function outputNames(node: AstNode, postgres: boolean): string[] | null {
  const names = Array.isArray(node.columns) ? node.columns.map((column) => outputName(column, postgres)) : [null];
  return names.every((name) => name !== null) ? (names as string[]) : null;
}

/** The aliases its select list gives (a bare column's own name is no alias: it must exist). */
function namedOutputs(node: AstNode): string[] {
  const aliases = Array.isArray(node.columns) ? node.columns.map((column) => isNode(column) && textOf(column.as)) : [];
  return aliases.filter((name): name is string => typeof name === "string" && name.length > 0);
}

function outputName(column: unknown, postgres: boolean): string | null {
  if (!isNode(column)) return null;
  const alias = textOf(column.as);
  if (alias) return alias;
  const expr = isNode(column.expr) ? column.expr : null;
  const name = expr?.type === "column_ref" ? columnName(expr, postgres) : null;
  return name && name.name !== "*" ? name.name : null;
}
