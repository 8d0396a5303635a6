import type { PGlite, Transaction } from "@electric-sql/pglite";
import { readPsqlScript, stripComments } from "./psql-script";

/** What a load did: counts, and each statement or meta-command it left out and why. */
export interface ScriptLoadReport {
  statements: number;
  copies: number;
  copiedRows: number;
  skipped: { line: number; what: string; reason: string }[];
}

type Target = Pick<PGlite | Transaction, "exec" | "query">;

/** Statements on one connection, whatever the driver: a script (several statements) or one with parameters. */
export interface SqlRunner {
  exec(sql: string): Promise<unknown>;
  query(sql: string, params: unknown[]): Promise<unknown>;
}

/** What a script is run on: one statement at a time, and `COPY … FROM stdin` with its rows. */
export interface ScriptRunner {
  statement(sql: string): Promise<void>;
  /** Feeds `data` (COPY text format) to the COPY statement; resolves with the rows copied. */
  copy(sql: string, data: string): Promise<number>;
}

export interface ScriptOptions {
  /** Rewrites each statement (never COPY data) before it runs: the server loader redirects `public`. */
  rewrite?: (sql: string) => string;
}

export function pgliteRunner(target: Target): SqlRunner {
  return { exec: (sql) => target.exec(sql), query: (sql, params) => target.query(sql, params) };
}

// PGlite reads a COPY's rows from its virtual `/dev/blob`.
function pgliteScriptRunner(target: Target): ScriptRunner {
  return {
    statement: async (sql) => void (await target.exec(sql)),
    copy: async (sql, data) => {
      const fromBlob = sql.replace(/\bfrom\s+stdin\b/i, "FROM '/dev/blob'");
      const result = await target.query(fromBlob, [], { blob: new Blob([data]) });
      return result.affectedRows ?? 0;
    },
  };
}

// Statements a dump addresses to the server or to roles, not to the data. The warehouse loads
// each dataset into a schema of one database as its owner, so these are left out.
const SKIPPED: [RegExp, string][] = [
  [/^(create|drop|alter)\s+database\b/i, "database-level statement: the dataset loads into a schema of the warehouse"],
  [/^alter\s+[\s\S]*\bowner\s+to\b/i, "owners are not kept: the warehouse owns every dataset"],
  [/^set\s+(session\s+)?search_path\b/i, "the loader sets the search path itself"],
  [/^select\s+pg_catalog\.set_config\s*\(\s*'search_path'/i, "the loader sets the search path itself"],
  [/^(grant|revoke)\b/i, "privileges are the warehouse's: readers get SELECT after the load"],
];

// Meta-commands that only steer psql itself; the connection and variables are the loader's.
const IGNORED_META: Record<string, string> = {
  "\\c": "the dataset loads into its own schema, not another database",
  "\\connect": "the dataset loads into its own schema, not another database",
  "\\set": "psql variables are not used by the statements that follow",
  "\\unset": "psql variables are not used by the statements that follow",
  "\\echo": "output for a person watching psql",
  "\\qecho": "output for a person watching psql",
  "\\pset": "psql output formatting",
  "\\encoding": "the scripts are UTF-8, the warehouse's encoding",
  "\\timing": "psql output formatting",
};

/** Runs a psql script against PGlite, `COPY … FROM stdin` blocks fed through its `/dev/blob`. */
export function loadPsqlScript(target: Target, script: string): Promise<ScriptLoadReport> {
  return runPsqlScript(pgliteScriptRunner(target), script);
}

/**
 * Runs a psql script: statements one at a time (a failing one stops the load with its line
 * number), `COPY … FROM stdin` blocks fed to the runner, and the statements and meta-commands
 * that only make sense to psql or a whole server skipped with a reason. Meta-commands that would
 * change what is loaded (`\i`, `\copy`, …) are refused.
 */
export async function runPsqlScript(
  runner: ScriptRunner,
  script: string,
  options: ScriptOptions = {},
): Promise<ScriptLoadReport> {
  const rewrite = options.rewrite ?? ((sql: string) => sql);
  const report: ScriptLoadReport = { statements: 0, copies: 0, copiedRows: 0, skipped: [] };
  for (const item of readPsqlScript(script)) {
    if (item.kind === "meta") {
      const reason = IGNORED_META[item.command];
      if (!reason) throw new Error(`Line ${item.line}: the psql command ${item.command} is not supported.`);
      report.skipped.push({ line: item.line, what: `${item.command} ${item.args}`.trim(), reason });
      continue;
    }
    const code = stripComments(item.sql);
    const skip = SKIPPED.find(([pattern]) => pattern.test(code));
    if (skip) {
      report.skipped.push({ line: item.line, what: firstLine(code), reason: skip[1] });
      continue;
    }
    try {
      if (item.kind === "copy") {
        report.copiedRows += await runner.copy(rewrite(item.sql), item.data);
        report.copies++;
      } else {
        await runner.statement(rewrite(item.sql));
        report.statements++;
      }
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`Line ${item.line} (${firstLine(code)}): ${reason}`, { cause: error });
    }
  }
  return report;
}

function firstLine(sql: string): string {
  const line = sql.split("\n", 1)[0];
  return line.length > 80 ? `${line.slice(0, 77)}…` : line;
}
