import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { config } from "@/lib/config";
import { logger } from "@/lib/log";
import { processSingleton } from "@/lib/process";
import { backupBeforeMigrations, migrationsPending } from "./backup";
import { DatabaseUnreadableError, EMBEDDED_EXTENSIONS, openEmbedded } from "./embedded";
import { ConnectionGate } from "./lanes";
import { applyTimeouts, refusesStartupParameters } from "./pooler";
import { rowsOf } from "./rows";
import * as schema from "./schema";
import { connectionTimeouts } from "./timeouts";

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type DbKind = "pglite" | "postgres";

export interface Database {
  db: Db;
  kind: DbKind;
  /** pgvector is installed in this database. */
  vector: boolean;
  /** Server databases: the connection string it was opened with (the demo warehouse lives there too). */
  url?: string;
  /** Server databases: one pooled connection for the caller alone (tenant transactions pipeline on it). */
  reserve?: () => Promise<postgres.ReservedSql>;
  /**
   * Server databases: LISTEN/NOTIFY between the processes that share the database (one dedicated
   * connection listens, reconnecting by itself). Embedded ones have a single process.
   */
  notifications?: Notifications;
  /**
   * Server databases: this process's presence, a session lock on a connection of its own that the
   * server lets go of the moment the process dies (lib/runs presence.ts).
   */
  presence?: Presence;
  /** In-memory PGlite only: the data folder as an image another `openDatabase({ image })` starts from. */
  image?: () => Promise<Blob>;
  close(): Promise<void>;
}

export interface Notifications {
  /** Calls `onMessage` with each payload sent on `channel`; resolves once listening, with how to stop. */
  listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
}

export interface Presence {
  /**
   * Registers the instance `owner` as present while this process lives (`vigil_register_instance`,
   * again after a lost connection); false when its presence lock is another session's.
   */
  register(owner: string): Promise<boolean>;
}

export interface DatabaseConfig {
  /** postgres://… for a server; unset for embedded PGlite. */
  url?: string;
  /** PGlite data folder, or "memory://" for a throw-away database. */
  dataDir?: string;
  /** The migrations to apply; the project's own `drizzle/` unless a test brings an older set. */
  migrationsFolder?: string;
  /**
   * Start a new embedded database from this saved data folder (a `Database.image()`) instead of an
   * empty cluster, which skips initdb and the migrations already applied in it. With "memory://"
   * always; with a data folder only when the folder holds no database yet (one that does is opened
   * as it is).
   */
  image?: Blob;
}

const defaultMigrationsFolder = path.join(process.cwd(), "drizzle");

export function configFromEnv(env = process.env): DatabaseConfig {
  if (env.DATABASE_URL) return { url: env.DATABASE_URL };
  return { dataDir: config(env).dataDir ?? path.join(process.cwd(), ".data", "pglite") };
}

/** Connects and applies every pending migration; safe to call on an up-to-date database. */
export async function openDatabase(config: DatabaseConfig): Promise<Database> {
  const migrationsFolder = config.migrationsFolder ?? defaultMigrationsFolder;
  const database = config.url
    ? await openPostgres(config.url, migrationsFolder)
    : await openPglite(config.dataDir ?? "memory://", migrationsFolder, config.image);
  try {
    const rows = await database.db.execute<{ present: boolean }>(
      sql`select exists (select 1 from pg_extension where extname = 'vector') as present`,
    );
    database.vector = Boolean(rowsOf<{ present: boolean }>(rows)[0]?.present);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

async function openPglite(dataDir: string, migrationsFolder: string, image?: Blob): Promise<Database> {
  if (dataDir.startsWith("memory://")) {
    const client = await PGlite.create(dataDir, { extensions: EMBEDDED_EXTENSIONS, loadDataDir: image });
    const database = await migratedPglite(client, migrationsFolder, () => client.close());
    return { ...database, image: () => client.dumpDataDir("none") };
  }
  // A data folder is this process's alone (its lock), and an existing database is backed up
  // before migrations change it.
  const embedded = await openEmbedded(dataDir, image);
  try {
    if (embedded.existed && (await migrationsPending(embedded.client, migrationsFolder))) {
      const backup = await backupBeforeMigrations(embedded.client, embedded.dataDir).catch((error: unknown) => {
        const reason = error instanceof Error ? error.message : String(error);
        throw new Error(
          `Could not back up ${embedded.dataDir} before migrating it (${reason}); nothing was changed. Free some space or set VIGIL_BACKUP_DIR, then start again.`,
          { cause: error },
        );
      });
      logger().info(`backed up ${embedded.dataDir} to ${backup.file} before migrating it`);
    }
    return await migratedPglite(embedded.client, migrationsFolder, () => embedded.close());
  } catch (error) {
    await embedded.close();
    // PostgreSQL aborting inside WASM while it reads the folder: the data, not a statement, is at fault.
    if (embedded.existed && error instanceof WebAssembly.RuntimeError) {
      throw new DatabaseUnreadableError(embedded.dataDir, error);
    }
    throw error;
  }
}

async function migratedPglite(client: PGlite, migrationsFolder: string, close: () => Promise<void>): Promise<Database> {
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  try {
    await migratePglite(db as never, { migrationsFolder });
  } catch (error) {
    await close();
    throw error;
  }
  return { db, kind: "pglite", vector: false, close };
}

/**
 * The session advisory lock migrations run under (any 64-bit number no other code locks). Two
 * instances, or two `npm run db:migrate`, starting together on one database: the second waits
 * for the first to finish, then finds nothing left to apply, instead of both creating the same
 * objects and one failing on a duplicate.
 */
const MIGRATION_LOCK = 0x5649_4749_4c4d; // "VIGILM"

/**
 * Applies the pending migrations under MIGRATION_LOCK. Migrations run on their own single
 * connection so their notices and locks stay out of the pool; with one connection, the lock, the
 * migrations and the unlock share one session. A session that ends (the process died) lets go of
 * the lock with it. `startup`: the timeouts travel as startup parameters, else they are set once
 * the session is open (a pooler that refuses them, pooler.ts).
 */
async function migrateServer(url: string, migrationsFolder: string, startup: boolean): Promise<void> {
  const timeouts = connectionTimeouts("migrate");
  const migrator = postgres(url, { max: 1, onnotice: () => {}, ...(startup ? { connection: timeouts } : {}) });
  try {
    if (!startup) await applyTimeouts(migrator, timeouts);
    await migrator`select pg_advisory_lock(${MIGRATION_LOCK}::bigint)`;
    try {
      await migratePostgres(drizzlePostgres(migrator) as never, { migrationsFolder });
    } finally {
      await migrator`select pg_advisory_unlock(${MIGRATION_LOCK}::bigint)`.catch(() => undefined);
    }
  } finally {
    await migrator.end();
  }
}

async function openPostgres(url: string, migrationsFolder: string): Promise<Database> {
  // The first connection also finds out whether the server takes the timeouts at start-up.
  let startup = true;
  try {
    await migrateServer(url, migrationsFolder, true);
  } catch (error) {
    if (!refusesStartupParameters(error)) throw error;
    startup = false;
    logger().warn(
      "the database server (a pooler such as PgBouncer) refuses startup parameters: the connection timeouts are set on each connection as it is handed out instead (docs/operations.md, Poolers)",
    );
    await migrateServer(url, migrationsFolder, false);
  }
  // A connection that cannot be made in a few seconds fails the request (503) instead of
  // holding it for the driver's default 30 s while the database is away.
  const max = Number(process.env.DATABASE_POOL_SIZE ?? 10);
  // A frozen instance's transaction is cut so another can take over its runs (timeouts.ts).
  const timeouts = connectionTimeouts("app");
  const client = postgres(url, {
    max,
    connect_timeout: Number(process.env.DATABASE_CONNECT_TIMEOUT ?? 5),
    onnotice: () => {},
    ...(startup ? { connection: timeouts } : {}),
  });
  const db = drizzlePostgres(client, { schema }) as unknown as Db;
  // One connection stays outside the gate for queries made on `db` itself (the sign-in
  // library's), so those never wait behind every reserved one.
  const gate = new ConnectionGate(max - 1, backgroundSlots());
  const reserve = async () => {
    const release = await gate.acquire();
    try {
      const connection = preparing(await client.reserve(), client.options);
      if (!startup) {
        await applyTimeouts(connection, timeouts).catch((error) => {
          connection.release();
          throw error;
        });
      }
      return gated(connection, release);
    } catch (error) {
      release();
      throw error;
    }
  };
  // Closing waits for queries in flight, but not forever: a server that went away may never answer.
  const notifications: Notifications = {
    listen: async (channel, onMessage) => (await client.listen(channel, onMessage)).unlisten,
    notify: async (channel, payload) => void (await client.notify(channel, payload)),
  };
  // Its own connection, never recycled (max_lifetime 0): a connection closed on a timer would
  // drop the lock, and other instances would take this one's runs for a dead process's.
  let presenceClient: postgres.Sql | undefined;
  const presence: Presence = {
    register: async (owner) => {
      presenceClient ??= postgres(url, {
        max: 1,
        max_lifetime: 0,
        idle_timeout: 0,
        connect_timeout: Number(process.env.DATABASE_CONNECT_TIMEOUT ?? 5),
        onnotice: () => {},
        ...(startup ? { connection: timeouts } : {}),
      });
      if (!startup) await applyTimeouts(presenceClient, timeouts);
      const [row] = await presenceClient<{ held: boolean }[]>`select vigil_register_instance(${owner}) as held`;
      return row?.held === true;
    },
  };
  return {
    db,
    kind: "postgres",
    vector: false,
    url,
    reserve,
    notifications,
    presence,
    close: async () => {
      await Promise.all([client.end({ timeout: 5 }), presenceClient?.end({ timeout: 5 })]);
    },
  };
}

/** `VIGIL_DB_BACKGROUND_SLOTS`: connections background work may hold at once (default: half the gate's). */
function backgroundSlots(): number | undefined {
  return config().dbBackgroundSlots;
}

/** The reserved connection gives its gate slot back when it goes back to the pool. */
function gated(connection: postgres.ReservedSql, release: () => void): postgres.ReservedSql {
  const giveBack = connection.release.bind(connection);
  return Object.assign(connection, {
    release: () => {
      giveBack();
      release();
    },
  });
}

/** Statements up to this size are prepared (named) on the connection that runs them. */
const PREPARE_MAX_PARAMS = 64;

/**
 * A reserved connection for tenant transactions. Drizzle sends its statements unnamed, and
 * postgres-js then describes each parameterised one before running it: two round trips per
 * statement. Here ordinary statements are prepared instead, once per connection, then cost one
 * round trip; bulk statements (whose shape varies with their row count) stay unnamed so the
 * per-connection statement cache does not grow without bound. The reserved connection also
 * needs the pool's `options`, which drizzle reads (parsers, serializers).
 */
function preparing(connection: postgres.ReservedSql, options: postgres.Sql["options"]): postgres.ReservedSql {
  const unsafe = connection.unsafe.bind(connection);
  const prepared: typeof connection.unsafe = (query, parameters, queryOptions) => {
    // Without parameters postgres-js sends a statement in one round trip anyway.
    const count = parameters?.length ?? 0;
    return unsafe(query, parameters, {
      ...queryOptions,
      prepare: Boolean(queryOptions?.prepare) || (count > 0 && count <= PREPARE_MAX_PARAMS),
    });
  };
  return Object.assign(connection, { options, unsafe: prepared });
}

// One database per process (PGlite is a single connection), kept process-wide so Next.js
// module reloads share it. A failed start is not cached: the next call tries again.
const holder = processSingleton("db", (): { db?: Map<string, Promise<Database>> } => ({}));

export function getDatabase(config: DatabaseConfig = configFromEnv()): Promise<Database> {
  if (override) return override;
  holder.db ??= new Map();
  const key = JSON.stringify(config);
  let pending = holder.db.get(key);
  if (!pending) {
    pending = openDatabase(config);
    holder.db.set(key, pending);
    pending.catch(() => holder.db?.delete(key));
  }
  return pending;
}

let override: Promise<Database> | undefined;

/** Points every lib call at one database (tests that run the same suite on two drivers). */
export function setActiveDatabase(database: Database | undefined): void {
  override = database ? Promise.resolve(database) : undefined;
}

/** Whether lib calls use a database set by `setActiveDatabase` instead of the configured one. */
export function usingActiveDatabaseOverride(): boolean {
  return override !== undefined;
}
