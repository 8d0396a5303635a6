// Reading `SHOW GRANTS` for anything that lets the role change data in the allowed databases.

const WRITE_PRIVILEGES = new Set([
  "ALL",
  "ALL PRIVILEGES",
  "INSERT",
  "UPDATE",
  "DELETE",
  "CREATE",
  "DROP",
  "ALTER",
  "INDEX",
  "CREATE VIEW",
  "CREATE ROUTINE",
  "ALTER ROUTINE",
  "EXECUTE",
  "TRIGGER",
  "EVENT",
  "CREATE TEMPORARY TABLES",
  "FILE",
  "SUPER",
  "DELETE HISTORY",
]);

const GRANT_LINE = /^GRANT\s+(.+?)\s+ON\s+(?:(?:TABLE|FUNCTION|PROCEDURE|PACKAGE(?: BODY)?)\s+)?(\S+)\s+TO\s/i;

/** A grant's database part as a pattern: `%` and `_` are LIKE wildcards, `\_` a literal underscore. */
function databasePattern(database: string): RegExp {
  let source = "";
  for (let i = 0; i < database.length; i++) {
    const ch = database[i];
    if (ch === "\\" && i + 1 < database.length) source += escapeRegExp(database[++i]);
    else if (ch === "%") source += ".*";
    else if (ch === "_") source += ".";
    else source += escapeRegExp(ch);
  }
  return new RegExp(`^${source}$`, "i");
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** `db.*`-style scope of a grant applies to one of the allowed databases. */
function coversAllowed(scope: string, allowed: string[]): boolean {
  const database = scope.split(".")[0].replace(/`/g, "");
  if (database === "*") return true;
  const pattern = databasePattern(database);
  return allowed.some((name) => pattern.test(name));
}

/**
 * The grants that make the current account able to write to the allowed databases, as the
 * admin would revoke them. A role granted to the account is reported too: the session could
 * `SET ROLE` to it, and its own grants are not in this list.
 */
export function writableFromGrants(grants: string[], allowed: string[]): string[] {
  const found: string[] = [];
  for (const grant of grants) {
    const match = GRANT_LINE.exec(grant);
    if (!match) {
      if (/^GRANT\s+`?[^`\s]+`?(@`?[^`\s]*`?)?\s+TO\s/i.test(grant) && !/\bPROXY\b/i.test(grant)) {
        found.push(`role grant: ${grant.replace(/\s+TO\s.*$/i, "").replace(/^GRANT\s+/i, "")}`);
      }
      continue;
    }
    const [, privilegeList, scope] = match;
    if (!coversAllowed(scope, allowed)) continue;
    const privileges = privilegeList
      .replace(/\([^)]*\)/g, "")
      .split(",")
      .map((p) => p.trim().toUpperCase());
    const writes = privileges.filter((p) => WRITE_PRIVILEGES.has(p));
    if (writes.length > 0) found.push(`${writes.join(", ")} on ${scope.replace(/`/g, "")}`);
  }
  return found;
}
