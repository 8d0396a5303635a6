import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";

// A `next start` of the production build in a process group of its own, so that stopping it
// reaches every process it started, whatever the benchmark did meanwhile.

export interface DetachedServer {
  base: string;
  child: ChildProcess;
  /** Resolves when the server process has exited. */
  exited: Promise<void>;
}

/** Throws when something already listens on `port` (a health check would then ask it instead). */
export async function assertPortFree(port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once("error", () => reject(new Error(`port ${port} is in use; set another with BENCH_SOAK_PORT`)));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve()));
  });
}

export function startDetached(port: number, env: Record<string, string>): DetachedServer {
  const child = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", String(port)], {
    env: { ...process.env, ...env, NODE_ENV: "production" },
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return { base: `http://127.0.0.1:${port}`, child, exited };
}

/** SIGTERM to the group; SIGKILL after `graceMs` if it is still there. */
export async function stopDetached(server: DetachedServer, graceMs = 10_000): Promise<void> {
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-(server.child.pid as number), name);
    } catch {
      // the group is gone
    }
  };
  if (server.child.exitCode === null && server.child.signalCode === null) signal("SIGTERM");
  const grace = setTimeout(() => signal("SIGKILL"), graceMs);
  await server.exited;
  clearTimeout(grace);
  // Anything it started and left behind goes with it.
  signal("SIGKILL");
}
