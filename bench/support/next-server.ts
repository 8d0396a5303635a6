import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { startDetached, stopDetached } from "./detached-server";

// What the benchmarks against `next start` share: seeding a server database, waiting for the
// server, signing in the demo expert, and measuring the server's memory.

/** Migrates and seeds a server database (the demo tenants, their agents and knowledge base). */
export async function seedServer(url: string) {
  // Opening the database migrates it; the demo seed gives the bench its signed-in user.
  const child = spawn("npx", ["tsx", "--import", "./scripts/server-only-node.mjs", "scripts/db-seed.ts"], {
    env: { ...process.env, DATABASE_URL: url },
    stdio: "inherit",
  });
  await new Promise((resolve) => child.on("exit", resolve));
}

export async function waitHealthy(base: string) {
  for (let i = 0; i < 240; i++) {
    try {
      const res = await fetch(`${base}/api/health`);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("server did not become healthy");
}

export async function signIn(base: string): Promise<string> {
  const res = await fetch(`${base}/api/session`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "expert@demo.local", password: "vigil-demo" }),
  });
  if (!res.ok) throw new Error(`sign-in failed: ${res.status}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

/** Resident memory of the server process and its children, in KiB (Linux /proc). */
export function rssOfTree(child: ChildProcess): number {
  const pids = [child.pid as number];
  try {
    const children = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, "utf8").trim();
    if (children) pids.push(...children.split(/\s+/).map(Number));
  } catch {
    // process gone
  }
  let total = 0;
  for (const pid of pids) {
    try {
      const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      total += match ? Number(match[1]) : 0;
    } catch {
      // exited
    }
  }
  return total;
}

export interface NextServer {
  base: string;
  /** The demo expert's session cookie. */
  cookie: string;
  child: ChildProcess;
}

/**
 * Runs `fn` against a fresh `next start` of the production build on `port`, with `env` on top
 * of this process's (a `dataDir` is emptied first), signed in as the demo expert; the server
 * is stopped afterwards whatever happens.
 */
export async function withNextServer<T>(
  port: number,
  env: Record<string, string>,
  dataDir: string,
  fn: (server: NextServer) => Promise<T>,
): Promise<T> {
  rmSync(dataDir, { recursive: true, force: true });
  const server = startDetached(port, { ...env, BETTER_AUTH_SECRET: "bench-secret-bench-secret-bench-secret" });
  try {
    await waitHealthy(server.base);
    return await fn({ base: server.base, cookie: await signIn(server.base), child: server.child });
  } finally {
    await stopDetached(server);
  }
}

/** Runs `work` while sampling the server's memory: its result, wall time and peak RSS. */
export async function measured<T>(
  child: ChildProcess,
  work: () => Promise<T>,
): Promise<{ result: T; wallMs: number; peakRssMb: number }> {
  let peak = 0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssOfTree(child));
  }, 50);
  const started = performance.now();
  try {
    const result = await work();
    return { result, wallMs: performance.now() - started, peakRssMb: peak / 1024 };
  } finally {
    clearInterval(sampler);
  }
}
