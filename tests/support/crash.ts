import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Database, openDatabase } from "@/lib/db";
import { testTargets } from "./databases";

// What a crash test needs: a server process (tests/support/run-worker.ts) on a database it
// finds from its environment, killed with SIGKILL, and the places such a database can live.

export const CRASH_LEASE_MS = 1500;

/** Where a child process finds the database: a server URL or an embedded data folder. */
export interface Location {
  env: Record<string, string>;
  open(): Promise<Database>;
}

/** Starts a worker command; `line` is the first JSON line it prints. */
export function worker(
  location: Location,
  args: string[],
): { child: ChildProcess; line: Promise<Record<string, unknown>> } {
  const child = spawn(
    "npx",
    ["tsx", "--import", "./scripts/server-only-node.mjs", "tests/support/run-worker.ts", ...args],
    {
      env: { ...process.env, ...location.env, VIGIL_RUN_LEASE_MS: String(CRASH_LEASE_MS), VIGIL_SEED: "off" },
      stdio: ["ignore", "pipe", "pipe"],
      // Its own process group, so SIGKILL reaches npx and the node process it started.
      detached: true,
    },
  );
  let stderr = "";
  child.stderr?.on("data", (d) => {
    stderr += d;
  });
  const line = new Promise<Record<string, unknown>>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (d) => {
      out += d;
      const first = out.split("\n").find((l) => l.startsWith("{"));
      if (first) resolve(JSON.parse(first));
    });
    child.on("exit", (code) => reject(new Error(`worker exited ${code} before reporting: ${stderr.slice(-2000)}`)));
  });
  return { child, line };
}

export function kill9(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.on("exit", () => resolve());
    // npx starts node as a child: kill the whole process group the hard way.
    process.kill(-(child.pid as number), "SIGKILL");
  });
}

/** Where crash tests keep their database: an embedded folder, and the server when there is one. */
export function crashLocations(): { name: string; prepare(): Promise<Location>; cleanup(): Promise<void> }[] {
  const dir = mkdtempSync(path.join(tmpdir(), "vigil-crash-"));
  const dataDir = path.join(dir, "pglite");
  const out = [
    {
      name: "pglite",
      prepare: async (): Promise<Location> => ({
        env: { VIGIL_DATA_DIR: dataDir, DATABASE_URL: "" },
        open: () => openDatabase({ dataDir }),
      }),
      cleanup: () => rm(dir, { recursive: true, force: true }),
    },
  ];
  const server = testTargets().find((t) => t.name === "postgres");
  if (server) {
    let handle: Database | undefined;
    out.push({
      name: "postgres",
      prepare: async () => {
        // The handle stays open for the test's life: closing it drops the database.
        const db = await server.open();
        handle = db;
        const url = (db as { url?: string }).url as string;
        return { env: { DATABASE_URL: url }, open: () => openDatabase({ url }) };
      },
      cleanup: async () => {
        await handle?.close();
      },
    });
  }
  return out;
}
