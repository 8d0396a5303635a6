import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";

// What the benchmarks against `next start` share: seeding a server database, waiting for the
// server, signing in the demo expert, and measuring the server's memory.

/** Migrates and seeds a server database (the demo tenants, their agents and knowledge base). */
export async function seedServer(url: string) {
  // Opening the database migrates it; the demo seed gives the bench its signed-in user.
  const child = spawn("npx", ["tsx", "scripts/db-seed.ts"], {
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
