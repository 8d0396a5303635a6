import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Database, openDatabase } from "@/lib/db";
import { templateImage, testTargets } from "./databases";
import { compiledScript } from "./scripts";

// What a crash test needs: a server process (tests/support/run-worker.ts) on a database it
// finds from its environment, killed with SIGKILL, and the places such a database can live.

export const CRASH_LEASE_MS = 1500;

const WORKER = "tests/support/run-worker.ts";

/** Where a child process finds the database (a server URL or an embedded data folder), and the worker it runs. */
export interface Location {
  env: Record<string, string>;
  open(): Promise<Database>;
  /** Node's arguments for tests/support/run-worker.ts, compiled once per run (tests/support/scripts.ts). */
  worker: string[];
}

/** Starts a worker command; `line` is the first JSON line it prints. */
export function worker(
  location: Location,
  args: string[],
  env: Record<string, string> = {},
): { child: ChildProcess; line: Promise<Record<string, unknown>>; output: () => string } {
  const child = spawn(process.execPath, [...location.worker, ...args], {
    env: { ...process.env, ...location.env, VIGIL_RUN_LEASE_MS: String(CRASH_LEASE_MS), VIGIL_SEED: "off", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group, so a signal reaches whatever the worker starts too.
    detached: true,
  });
  let stderr = "";
  let stdout = "";
  child.stderr?.on("data", (d) => {
    stderr += d;
  });
  child.stdout?.on("data", (d) => {
    stdout += d;
  });
  const line = new Promise<Record<string, unknown>>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (d) => {
      out += d;
      // Only whole lines: a long one may arrive in pieces.
      const first = out
        .split("\n")
        .slice(0, -1)
        .find((l) => l.startsWith("{"));
      if (first) resolve(JSON.parse(first));
    });
    child.on("exit", (code) => reject(new Error(`worker exited ${code} before reporting: ${stderr.slice(-2000)}`)));
  });
  // What the worker wrote, for a failing test's message.
  return { child, line, output: () => `${stdout.slice(-3000)}\n${stderr.slice(-3000)}` };
}

/**
 * Sends SIGTERM to the worker's process group (as a process manager stopping a service would);
 * resolves when the worker has exited.
 */
export function terminate(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.on("exit", () => resolve());
    process.kill(-(child.pid as number), "SIGTERM");
  });
}

/** Kills whatever is left of a worker's process group (a test's cleanup); nothing if it is gone. */
export function killGroup(child: ChildProcess): void {
  try {
    process.kill(-(child.pid as number), "SIGKILL");
  } catch {
    // The group has exited already.
  }
}

export function kill9(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.on("exit", () => resolve());
    // The whole process group, the hard way.
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
      prepare: async (): Promise<Location> => {
        // The folder's first open starts from the run's seeded template (with the knowledge
        // corpus), so the suites' seeding finds everything there instead of migrating and seeding.
        // Fetched here, in the suite's set-up, where waiting for the template to be built belongs.
        const [image, worker] = await Promise.all([templateImage("seeded-knowledge"), compiledScript(WORKER)]);
        return {
          env: { VIGIL_DATA_DIR: dataDir, DATABASE_URL: "" },
          open: () => openDatabase({ dataDir, image }),
          worker,
        };
      },
      cleanup: () => rm(dir, { recursive: true, force: true }),
    },
  ];
  const server = testTargets().find((t) => t.name === "postgres");
  if (server) {
    let handle: Database | undefined;
    out.push({
      name: "postgres",
      prepare: async () => {
        // The handle stays open for the test's life: closing it drops the database. A copy of the
        // run's seeded template, as the embedded folder above.
        const [db, worker] = await Promise.all([
          server.openFrom ? server.openFrom("seeded-knowledge") : server.open(),
          compiledScript(WORKER),
        ]);
        handle = db;
        const url = (db as { url?: string }).url as string;
        return { env: { DATABASE_URL: url }, open: () => openDatabase({ url }), worker };
      },
      cleanup: async () => {
        await handle?.close();
      },
    });
  }
  return out;
}
