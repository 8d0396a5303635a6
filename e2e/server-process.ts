import { type ChildProcess, execFile, spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { connect } from "node:net";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";
import { PASSWORD } from "./support";

// A `next start` of the production build that a test starts, stops and kills itself (the
// suite's own server, from playwright.config.ts, is never killed).

export interface ServerProcess {
  base: string;
  child: ChildProcess;
}

export function startServer(port: number, env: Record<string, string>): ServerProcess {
  const child = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", String(port)], {
    // No spec that starts its own server looks at a data source: building the demo join graphs
    // would load a demo warehouse of its own (seconds to a minute of CPU) beside its tests.
    env: { ...process.env, NODE_ENV: "production", VIGIL_PREPARE_JOIN_GRAPHS: "off", ...env },
    stdio: ["ignore", "ignore", "inherit"],
    // Its own process group, so a kill reaches every process it started.
    detached: true,
  });
  return { base: `http://127.0.0.1:${port}`, child };
}

/**
 * Empties `dataDir` and fills it with a copy of the embedded database seeded once for this build
 * (scripts/e2e-seeded-dir.mjs): a server started on it skips the seeding an empty folder costs.
 */
export async function seededDataDir(dataDir: string): Promise<void> {
  await promisify(execFile)(process.execPath, ["scripts/e2e-seeded-dir.mjs", dataDir]);
}

/** Removes a spec's data folder and the demo warehouse's beside it. */
export function removeDataDir(dataDir: string): void {
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(`${dataDir}-warehouse`, { recursive: true, force: true });
}

/** Waits until the port accepts connections, without an HTTP request (which would boot the app). */
export async function listening(server: ServerProcess): Promise<void> {
  const { port, hostname } = new URL(server.base);
  for (let i = 0; i < 480; i++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(Number(port), hostname, () => {
        socket.end();
        resolve(true);
      });
      socket.on("error", () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error("next start did not listen");
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.on("exit", () => resolve()));
}

export async function stopServer(server: ServerProcess): Promise<void> {
  const done = exited(server.child);
  process.kill(-(server.child.pid as number), "SIGTERM");
  // A server still holding an event stream open (a page of the spec's) may wait for it to end
  // before it exits: after a grace period it is stopped the hard way.
  const grace = setTimeout(() => {
    try {
      process.kill(-(server.child.pid as number), "SIGKILL");
    } catch {
      // already gone
    }
  }, 10_000);
  await done;
  clearTimeout(grace);
}

/** `kill -9` of the server and everything it started. */
export async function killServer(server: ServerProcess): Promise<void> {
  const done = exited(server.child);
  process.kill(-(server.child.pid as number), "SIGKILL");
  await done;
}

export async function signInAt(base: string, email: string): Promise<string> {
  const res = await fetch(`${base}/api/session`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  expect(res.status).toBe(200);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

export async function api(
  base: string,
  cookie: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${base}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { cookie, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/**
 * A server of the spec's own, started before its tests and stopped after, on which every chat
 * answer goes to review (VIGIL_REVIEW_CONFIDENCE=0.999: the suite's own server cannot be given
 * an environment per test), on an embedded database of its own, copied from the seeded one.
 */
export function reviewingServer(port: number, dataDir: string, env: Record<string, string> = {}): void {
  let server: ServerProcess;
  test.beforeAll(async () => {
    test.setTimeout(240_000);
    await seededDataDir(dataDir);
    server = startServer(port, {
      VIGIL_DATA_DIR: dataDir,
      BETTER_AUTH_SECRET: `reviewing-${port}-secret-reviewing-secret`,
      VIGIL_REVIEW_CONFIDENCE: "0.999",
      ...env,
    });
    await listening(server);
  });
  test.afterAll(async () => {
    await stopServer(server);
    removeDataDir(dataDir);
  });
}
