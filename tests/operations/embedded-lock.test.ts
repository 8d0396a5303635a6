import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DatabaseInUseError, openDatabase, rowsOf } from "@/lib/db";
import { seedDemo } from "@/lib/demo";
import { templateImage } from "../support/databases";
import { kill9, killLeftovers, runScript, spawnScript } from "./support";

// One embedded data folder, two processes: the second must be refused with one sentence while
// the first keeps working, and the folder must open afterwards; a lock left by a process killed
// with SIGKILL is taken over. Real processes, started as an operator starts them.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let dir: string;
let dataDir: string;
let env: Record<string, string>;
const lockFile = () => `${dataDir}.lock`;

async function probeRows(): Promise<number> {
  const database = await openDatabase({ dataDir });
  try {
    const rows = rowsOf<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from lock_probe`));
    return rows[0].n;
  } finally {
    await database.close();
  }
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "vigil-lock-"));
  dataDir = path.join(dir, "pglite");
  env = { VIGIL_DATA_DIR: dataDir, VIGIL_SEED: "off" };
  // The demo data in the folder: the run's seeded template, instead of migrating and seeding.
  const image = await templateImage("seeded");
  const database = await openDatabase({ dataDir, image });
  if (!image) await seedDemo(database, { force: true });
  await database.close();
});

afterEach(killLeftovers);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("an embedded data folder opened by two processes", () => {
  it("refuses the second with one sentence naming the holder, while the first keeps writing", async () => {
    const holder = spawnScript(["tests/operations/db-holder.ts"], env);
    const { pid } = (await holder.next()) as { pid: number };

    // The operator's command from the README, while the app runs.
    const apikey = await runScript(["scripts/apikey.ts", "--tenant", "demo", "--role", "reviewer"], env);
    expect(apikey.code).toBe(1);
    expect(apikey.stdout).toBe("");
    const refusal = apikey.stderr.trim();
    expect(refusal.split("\n")).toHaveLength(1);
    expect(refusal).toContain(dataDir);
    expect(refusal).toContain(`process ${pid}`);
    expect(refusal).toContain("create the key in the app under API keys");
    expect(refusal).toContain("stop the server");

    // Any other opener too: a migration, and this process.
    const migrate = await runScript(["scripts/db-migrate.ts"], env);
    expect(migrate.code).toBe(1);
    expect(migrate.stderr.trim().split("\n")).toHaveLength(1);
    expect(migrate.stderr).toContain(`in use by process ${pid}`);
    const here = await openDatabase({ dataDir }).catch((error: unknown) => error);
    expect(here).toBeInstanceOf(DatabaseInUseError);
    expect((here as DatabaseInUseError).owner.pid).toBe(pid);

    // The holder never noticed: it goes on writing.
    holder.send("report");
    const before = (await holder.next()).writes as number;
    await sleep(300);
    holder.send("report");
    expect((await holder.next()).writes as number).toBeGreaterThan(before);

    holder.send("stop");
    const { writes } = (await holder.next()) as { writes: number };
    expect(await holder.exited).toBe(0);
    expect(existsSync(lockFile())).toBe(false);

    // Free again: it opens with every row the holder wrote, and the command works.
    expect(await probeRows()).toBe(writes);
    const created = await runScript(["scripts/apikey.ts", "--tenant", "demo", "--role", "reviewer"], env);
    expect(created.stderr).toContain("It is shown only once");
    expect(created.code).toBe(0);
    expect(created.stdout.trim()).not.toBe("");
  });

  it("takes over the lock of a holder killed with SIGKILL", async () => {
    const holder = spawnScript(["tests/operations/db-holder.ts"], env);
    const { pid } = (await holder.next()) as { pid: number };
    await sleep(200);
    await kill9(holder, pid);

    // The dead holder's lock is still there: nobody removed it.
    expect(JSON.parse(readFileSync(lockFile(), "utf8")).pid).toBe(pid);
    const database = await openDatabase({ dataDir });
    expect(JSON.parse(readFileSync(lockFile(), "utf8")).pid).toBe(process.pid);
    const rows = rowsOf<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from lock_probe`));
    expect(rows[0].n).toBeGreaterThan(0);
    await database.close();
    expect(existsSync(lockFile())).toBe(false);
  });

  it("takes over a lock whose pid now belongs to another process", async () => {
    // The lock of a process that ran before a restart, its pid since given to this one.
    const database = await openDatabase({ dataDir });
    const lock = JSON.parse(readFileSync(lockFile(), "utf8"));
    await database.close();
    writeFileSync(lockFile(), JSON.stringify({ ...lock, pid: process.pid, startTicks: "1", token: "old" }));
    const reopened = await openDatabase({ dataDir });
    expect(JSON.parse(readFileSync(lockFile(), "utf8")).token).not.toBe("old");
    await reopened.close();
  });
});
