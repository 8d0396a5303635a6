// The five sql-eval databases on a PostgreSQL server, each in its own database
// `vigil_sqleval_<db>`, loaded with psql from the dataset's dump (README: "load with
// `psql -d <db> -f <db>.sql` into an empty database"), with the column descriptions of
// `<db>.json` as column comments (where the join graph reads a column's description), and a
// read-only login role for registering them, as a careful admin would. A database already
// loaded from the same files (its comment holds their hash) is reused.

import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import postgres from "postgres";

export const SQL_EVAL_DIR =
  process.env.VIGIL_SQL_EVAL_DIR ?? path.resolve(process.cwd(), "..", "shared", "datasets", "sql-eval");

export const SQL_EVAL_DATABASES = ["academic", "atis", "restaurants", "broker", "car_dealership"] as const;
export type SqlEvalDatabase = (typeof SQL_EVAL_DATABASES)[number];

/** The role the sources are registered with: it may read the databases and nothing else. */
export const READER_ROLE = "vigil_sqleval_reader";
// A fixed password: the role can only read public benchmark data, and two runs at once (a test
// and the benchmark) must not change it under each other.
const READER_PASSWORD = createHash("sha256").update("vigil sql-eval reader").digest("hex").slice(0, 24);

export interface LoadedDatabase {
  db: SqlEvalDatabase;
  /** Connection string of the read-only role, for registering the source. */
  readerUrl: string;
  /** Connection string as the server's admin, for running the reference SQL. */
  adminUrl: string;
  /** False when an earlier run's copy was reused. */
  loaded: boolean;
}

interface ColumnDescription {
  column_name: string;
  column_description?: string;
}

function urlFor(serverUrl: string, database: string, user?: { name: string; password: string }): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  if (user) {
    url.username = user.name;
    url.password = user.password;
  }
  return url.toString();
}

const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;

function commentsSql(db: SqlEvalDatabase): string {
  const meta = JSON.parse(readFileSync(path.join(SQL_EVAL_DIR, "databases", `${db}.json`), "utf8")) as {
    table_metadata: Record<string, ColumnDescription[]>;
  };
  const lines: string[] = [];
  for (const [table, columns] of Object.entries(meta.table_metadata)) {
    for (const column of columns) {
      if (!column.column_description) continue;
      lines.push(
        // The dump names everything unquoted, so the catalog holds lower case.
        `COMMENT ON COLUMN public."${table.toLowerCase()}"."${column.column_name.toLowerCase()}" IS ${quote(column.column_description)};`,
      );
    }
  }
  return lines.join("\n");
}

/** Unreachable is a failure that says so, never a skip. */
export async function serverAdmin(serverUrl: string): Promise<postgres.Sql> {
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {}, connect_timeout: 5 });
  try {
    await admin`select 1`;
  } catch (error) {
    await admin.end();
    throw new Error(
      `PostgreSQL is not reachable at ${serverUrl} (${(error as Error).message}). Start it (.ci/run does) or set TEST_DATABASE_URL.`,
    );
  }
  return admin;
}

/** Loads (or reuses) every sql-eval database on the server and makes the read-only role. */
export async function loadSqlEvalDatabases(serverUrl: string): Promise<LoadedDatabase[]> {
  const admin = await serverAdmin(serverUrl);
  try {
    // One loader at a time on the server: a test run and a benchmark may start together.
    await admin`select pg_advisory_lock(hashtext('vigil_sqleval_load'))`;
    await admin.unsafe(`do $$ begin
      if not exists (select 1 from pg_roles where rolname = '${READER_ROLE}') then
        create role ${READER_ROLE} login password '${READER_PASSWORD}';
      end if;
    end $$`);
    const out: LoadedDatabase[] = [];
    for (const db of SQL_EVAL_DATABASES) out.push(await loadOne(admin, serverUrl, db));
    await admin`select pg_advisory_unlock(hashtext('vigil_sqleval_load'))`;
    return out;
  } finally {
    await admin.end();
  }
}

async function loadOne(admin: postgres.Sql, serverUrl: string, db: SqlEvalDatabase): Promise<LoadedDatabase> {
  const name = `vigil_sqleval_${db}`;
  const dump = readFileSync(path.join(SQL_EVAL_DIR, "databases", `${db}.sql`), "utf8");
  const comments = commentsSql(db);
  const hash = createHash("sha256").update(dump).update(comments).update(READER_ROLE).digest("hex").slice(0, 16);
  const marker = `sql-eval ${db} ${hash}`;
  const adminUrl = urlFor(serverUrl, name);
  const readerUrl = urlFor(serverUrl, name, { name: READER_ROLE, password: READER_PASSWORD });
  const [existing] = await admin<{ comment: string | null }[]>`
    select shobj_description(oid, 'pg_database') as comment from pg_database where datname = ${name}`;
  if (existing?.comment === marker) return { db, adminUrl, readerUrl, loaded: false };

  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.unsafe(`create database ${name}`);
  await promisify(execFile)(
    "psql",
    ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", adminUrl, "-f", path.join(SQL_EVAL_DIR, "databases", `${db}.sql`)],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  const source = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await source.unsafe(comments);
    // Read-only by grants: the role may connect and SELECT, and owns nothing it could change.
    await source.unsafe(`
      revoke all on database ${name} from public;
      grant connect on database ${name} to ${READER_ROLE};
      grant usage on schema public to ${READER_ROLE};
      grant select on all tables in schema public to ${READER_ROLE};
      analyze;`);
  } finally {
    await source.end();
  }
  // Last: the marker says the database is complete.
  await admin.unsafe(`comment on database ${name} is ${quote(marker)}`);
  return { db, adminUrl, readerUrl, loaded: true };
}
