import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import postgres from "postgres";
import { inject } from "vitest";
import { type Database, openDatabase } from "@/lib/db";
import {
  pgliteTemplate,
  serverTemplate,
  type TemplateRun,
  type TemplateVariant,
  warehouseFromTemplate,
} from "./templates";

export type TestDatabase = Database & { /** Set for a server database. */ url?: string };

export interface TestTarget {
  name: "pglite" | "postgres";
  /** A new, migrated, empty database; `close()` drops it again. */
  open(): Promise<TestDatabase>;
  /** A new database copied from the run's template of that variant (migrated, or seeded too). Targets of the run's own. */
  openFrom?(variant: TemplateVariant): Promise<TestDatabase>;
}

/** The run's template folder (tests/support/templates.ts), or null outside a Vitest run that made one. */
export function templateRun(): TemplateRun | null {
  try {
    return inject("vigilTemplateRun") ?? null;
  } catch {
    return null;
  }
}

const images = new Map<string, Blob>();
function imageAt(file: string): Blob {
  let image = images.get(file);
  if (!image) {
    image = new Blob([readFileSync(file)]);
    images.set(file, image);
  }
  return image;
}

/**
 * The run's PGlite template of `variant` as an image (`openDatabase({ dataDir, image })` starts a
 * new embedded database, in memory or in a folder, from it); undefined outside a run that made
 * templates, where the database is built from scratch as before.
 */
export async function templateImage(variant: TemplateVariant): Promise<Blob | undefined> {
  const run = templateRun();
  return run ? imageAt(await pgliteTemplate(run, variant)) : undefined;
}

/**
 * A demo warehouse in memory loaded from `datasetsDir`: from the run's loaded copy
 * (tests/support/templates.ts), or from the scripts outside a run that made templates.
 */
export async function templateWarehouse(datasetsDir: string, key: string): Promise<TestWarehouse> {
  const run = templateRun();
  if (run) return warehouseFromTemplate(run, datasetsDir, key);
  // Imported when first needed: most suites that import this file open no warehouse.
  const { openWarehouse } = await import("@/lib/datasources");
  return openWarehouse({ dataDir: "memory://", datasetsDir, key });
}

export type TestWarehouse = Awaited<ReturnType<typeof import("@/lib/datasources").openWarehouse>>;

// Targets copy the run's templates when Vitest's global setup made a run; elsewhere (a script
// importing this file) they build each database from scratch, and have no `openFrom`.
function pgliteTarget(run: TemplateRun | null): TestTarget {
  const fresh = () => openDatabase({ dataDir: "memory://" });
  if (!run) return { name: "pglite", open: fresh };
  const openFrom = async (variant: TemplateVariant): Promise<TestDatabase> =>
    openDatabase({ dataDir: "memory://", image: imageAt(await pgliteTemplate(run, variant)) });
  return { name: "pglite", open: () => openFrom("migrated"), openFrom };
}

function serverTarget(serverUrl: string, run: TemplateRun | null): TestTarget {
  const fresh = () => openFreshServerDatabase(serverUrl);
  if (!run) return { name: "postgres", open: fresh };
  const openFrom = async (variant: TemplateVariant): Promise<TestDatabase> =>
    openFreshServerDatabase(serverUrl, await serverTemplate(run, serverUrl, variant));
  return { name: "postgres", open: () => openFrom("migrated"), openFrom };
}

/**
 * Every database: PGlite always, the real PostgreSQL too when TEST_DATABASE_URL points at a
 * server. For suites whose subject is the database itself (row-level security, concurrency and
 * locks, the outbox and the chain, checkpoint storage, leases and crashes, lanes, text search,
 * data sources), where the two can differ.
 */
export function testTargets(): TestTarget[] {
  const run = templateRun();
  const targets: TestTarget[] = [pgliteTarget(run)];
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) targets.push(serverTarget(serverUrl, run));
  return targets;
}

/**
 * One database, for suites whose subject is the application above the database (routes,
 * workflows, reviews, reports): running them on both doubled the suite's time and tested the
 * database no further. The server when there is one (it works on its own processes, beside the
 * suite's), PGlite otherwise; `VIGIL_TEST_EVERY_DATABASE=1` runs them on every database too.
 */
export function appTargets(): TestTarget[] {
  const targets = testTargets();
  if (process.env.VIGIL_TEST_EVERY_DATABASE === "1") return targets;
  return [targets.find((t) => t.name === "postgres") ?? targets[0]];
}

async function openFreshServerDatabase(serverUrl: string, template?: string): Promise<TestDatabase> {
  const name = `vigil_test_${randomBytes(6).toString("hex")}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    // Copying a template is a file copy; suites cloning the same one at once each wait their turn.
    await admin.unsafe(template ? `create database ${name} template ${template}` : `create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString() });
  return {
    ...database,
    url: url.toString(),
    async close() {
      await database.close();
      const dropper = postgres(serverUrl, { max: 1, onnotice: () => {} });
      await dropper.unsafe(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}
