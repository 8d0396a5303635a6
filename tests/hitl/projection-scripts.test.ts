import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, schema, setActiveDatabase } from "@/lib/db";
import { seedDemo } from "@/lib/demo";
import { recordDecision } from "@/lib/hitl";
import { templateImage } from "../support/databases";
import { TSX_NODE_ARGS } from "../support/scripts";
import { actors, rid, submitLgv } from "./support";

const run = promisify(execFile);

async function script(mode: "rebuild" | "drift", dataDir: string) {
  try {
    const { stdout } = await run(process.execPath, [...TSX_NODE_ARGS, "scripts/hitl-projection.ts", mode], {
      env: { ...process.env, VIGIL_DATA_DIR: dataDir, DATABASE_URL: "" },
    });
    return { code: 0, stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, stdout: failed.stdout };
  }
}

describe("npm run hitl:drift / hitl:rebuild", () => {
  let dir: string;
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("drift exits non-zero and names the tampered case; rebuild repairs it", async () => {
    dir = await mkdtemp(path.join(tmpdir(), "vigil-hitl-"));
    const dataDir = path.join(dir, "pglite");
    // The demo data in a folder of its own: the run's seeded template, instead of migrating and seeding.
    const image = await templateImage("seeded");
    const database = await openDatabase({ dataDir, image });
    let caseId: string;
    try {
      if (!image) await seedDemo(database, { force: true });
      setActiveDatabase(database);
      const [demo] = await database.db.select().from(schema.tenants).where(eq(schema.tenants.slug, "demo"));
      const [acme] = await database.db.select().from(schema.tenants).where(eq(schema.tenants.slug, "acme"));
      const people = actors({ demo: demo.id, acme: acme.id });
      caseId = (await submitLgv(people.member)).caseId;
      await recordDecision(people.reviewer, caseId, { requestId: rid(), outcome: "rejected" });
      await submitLgv(people.member);
      // Edited behind the log's back, as the owner.
      await database.db.execute(
        sql`update ${schema.hitlState} set current_state = 'approved', active_decision_outcome = 'approved' where case_id = ${caseId}`,
      );
    } finally {
      setActiveDatabase(undefined);
      await database.close();
    }

    const drift = await script("drift", dataDir);
    expect(drift.code).toBe(1);
    expect(drift.stdout).toContain(`demo: DRIFT`);
    expect(drift.stdout).toContain(caseId);
    expect(drift.stdout).toMatch(/acme: ok/);

    const rebuild = await script("rebuild", dataDir);
    expect(rebuild.code).toBe(0);
    expect(rebuild.stdout).toContain(`demo: rebuilt 2 cases; 1 differed (${caseId})`);

    const clean = await script("drift", dataDir);
    expect(clean.code).toBe(0);
    expect(clean.stdout).toMatch(/demo: ok/);
    // Three script processes, each compiling the app and opening the embedded database: on a
    // busy two-core machine that alone can pass the default minute.
  }, 180_000);
});
