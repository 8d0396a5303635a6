import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { type Database, openDatabase } from "@/lib/db";

export type TestDatabase = Database & { /** Set for a server database. */ url?: string };

export interface TestTarget {
  name: "pglite" | "postgres";
  /** A new, migrated, empty database; `close()` drops it again. */
  open(): Promise<TestDatabase>;
}

/** PGlite always; the real PostgreSQL too when TEST_DATABASE_URL points at a server. */
export function testTargets(): TestTarget[] {
  const targets: TestTarget[] = [{ name: "pglite", open: () => openDatabase({ dataDir: "memory://" }) }];
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) targets.push({ name: "postgres", open: () => openFreshServerDatabase(serverUrl) });
  return targets;
}

async function openFreshServerDatabase(serverUrl: string): Promise<TestDatabase> {
  const name = `vigil_test_${randomBytes(6).toString("hex")}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
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
