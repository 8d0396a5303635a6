import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import type { TestProject } from "vitest/node";
import type { Database } from "@/lib/db";

/**
 * Migrate (and seed) once per run; every suite's database is a copy. Migrating and seeding per
 * suite and per database was most of the suite's set-up time: an embedded database pays initdb
 * and every migration (about ten seconds on two cores) before its first statement.
 *
 * Vitest's global setup only names the run's folder; the first suite that needs a template
 * builds it (under a lock in that folder) and the others wait for it, so a run of one file
 * builds only what that file uses. PGlite templates are data-folder images on disk; server
 * templates are databases cloned with `CREATE DATABASE … TEMPLATE`.
 */
export type TemplateVariant = "migrated" | "seeded" | "seeded-knowledge";

export interface TemplateRun {
  id: string;
  folder: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    vigilTemplateRun: TemplateRun;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function prepare(database: Database, variant: TemplateVariant): Promise<void> {
  if (variant === "migrated") return;
  // Imported when first needed: the global setup, which loads this file too, needs none of it.
  const [{ seedTenants }, { drainTrace }, { setActiveDatabase }, { boot }] = await Promise.all([
    import("./seeded"),
    import("@/lib/trace"),
    import("@/lib/db"),
    import("@/lib/server"),
  ]);
  setActiveDatabase(database);
  try {
    await boot({ sweeps: false });
    await seedTenants(database, { knowledge: variant === "seeded-knowledge" });
    await drainTrace();
  } finally {
    setActiveDatabase(undefined);
  }
}

/**
 * Runs `work` while holding `<key>.lock` in the run's folder, so that one suite at a time does
 * it. A holder that died leaves its lock behind; after ten minutes it is taken.
 */
export async function locked(run: TemplateRun, key: string, work: () => Promise<void>): Promise<void> {
  const lock = path.join(run.folder, `${key}.lock`);
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 600_000) rmSync(lock, { recursive: true, force: true });
      await sleep(100);
    }
  }
  try {
    await work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Runs `build` once per run for `key`: the first caller builds and leaves `<key>.done`, the others wait for it. */
async function once(run: TemplateRun, key: string, build: () => Promise<void>): Promise<void> {
  const done = path.join(run.folder, `${key}.done`);
  if (existsSync(done)) return;
  await locked(run, key, async () => {
    if (existsSync(done)) return;
    await build();
    writeFileSync(done, "");
  });
}

/** The run's PGlite image of `variant`, built on first use. */
export async function pgliteTemplate(run: TemplateRun, variant: TemplateVariant): Promise<string> {
  const file = path.join(run.folder, `pglite-${variant}.tar`);
  await once(run, `pglite-${variant}`, async () => {
    const { openDatabase } = await import("@/lib/db");
    const database = await openDatabase({ dataDir: "memory://" });
    try {
      await prepare(database, variant);
      const image = await (database.image as NonNullable<Database["image"]>)();
      writeFileSync(`${file}.tmp`, Buffer.from(await image.arrayBuffer()));
      renameSync(`${file}.tmp`, file);
    } finally {
      await database.close();
    }
  });
  return file;
}

/**
 * The demo warehouse (tests/support/sql-datasets.ts) in memory, from the run's loaded copy:
 * loading Pagila, Chinook and Northwind from their scripts took each Data Analyst suite longer
 * than its tests. The first suite that asks loads it, saves its image for the others and keeps
 * using what it loaded; later suites start from the image and reload only Northwind, whose
 * encrypted fields follow the suite's key. A suite that asks while another is still loading it
 * loads its own, as before, rather than spend its set-up time waiting.
 */
export async function warehouseFromTemplate(
  run: TemplateRun,
  datasetsDir: string,
  key: string,
): Promise<Awaited<ReturnType<typeof import("@/lib/datasources").openWarehouse>>> {
  const { openWarehouse } = await import("@/lib/datasources");
  const file = path.join(run.folder, "warehouse.tar");
  if (existsSync(file)) {
    return openWarehouse({ dataDir: "memory://", datasetsDir, key, image: new Blob([readFileSync(file)]) });
  }
  const lock = path.join(run.folder, "warehouse.lock");
  try {
    mkdirSync(lock);
  } catch {
    return openWarehouse({ dataDir: "memory://", datasetsDir, key });
  }
  try {
    const warehouse = await openWarehouse({ dataDir: "memory://", datasetsDir, key });
    try {
      const image = await warehouse.client.dumpDataDir("none");
      writeFileSync(`${file}.tmp`, Buffer.from(await image.arrayBuffer()));
      renameSync(`${file}.tmp`, file);
    } catch (error) {
      await warehouse.close();
      throw error;
    }
    return warehouse;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

const templateName = (run: TemplateRun, variant: TemplateVariant) => `vigil_tpl_${run.id}_${variant.replace("-", "_")}`;

function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The run's template database of `variant` on the server, built on first use. */
export async function serverTemplate(run: TemplateRun, serverUrl: string, variant: TemplateVariant): Promise<string> {
  const name = templateName(run, variant);
  await once(run, `server-${variant}`, async () => {
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    try {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.unsafe(`create database ${name}`);
    } finally {
      await admin.end();
    }
    const { openDatabase } = await import("@/lib/db");
    const database = await openDatabase({ url: databaseUrl(serverUrl, name) });
    try {
      await prepare(database, variant);
    } finally {
      await database.close();
    }
  });
  return name;
}

export default function setup(project: TestProject): () => Promise<void> {
  const run: TemplateRun = {
    id: randomBytes(4).toString("hex"),
    folder: mkdtempSync(path.join(os.tmpdir(), "vigil-test-templates-")),
  };
  project.provide("vigilTemplateRun", run);
  return async () => {
    rmSync(run.folder, { recursive: true, force: true });
    const serverUrl = process.env.TEST_DATABASE_URL;
    if (!serverUrl) return;
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    try {
      for (const variant of ["migrated", "seeded", "seeded-knowledge"] as const) {
        await admin.unsafe(`drop database if exists ${templateName(run, variant)} with (force)`);
      }
    } finally {
      await admin.end();
    }
  };
}
