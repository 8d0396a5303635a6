import { execFile, execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir, userInfo } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

/**
 * A PostgreSQL cluster of the test's own (initdb + pg_ctl on a spare port), so a test can stop
 * and start the database under a running app without touching the machine's server. The
 * server refuses to run as root; as root the cluster runs as the `postgres` system user.
 */
export interface ThrowawayCluster {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  destroy(): void;
}

function binDir(): string {
  const candidates = ["/usr/lib/postgresql"].filter(existsSync).flatMap((root) =>
    readdirSync(root)
      .sort()
      .reverse()
      .map((version) => path.join(root, version, "bin")),
  );
  const found = candidates.find((dir) => existsSync(path.join(dir, "pg_ctl")));
  if (!found) throw new Error("PostgreSQL server binaries (initdb, pg_ctl) were not found under /usr/lib/postgresql");
  return found;
}

const exec = promisify(execFile);

/** A TCP port on 127.0.0.1 that nothing listens on now. */
export async function sparePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function startThrowawayCluster(): Promise<ThrowawayCluster> {
  const bin = binDir();
  const root = userInfo().uid === 0;
  const dir = mkdtempSync(path.join(tmpdir(), "vigil-cluster-"));
  if (root) chownSync(dir, Number(execFileSync("id", ["-u", "postgres"]).toString()), 0);
  const data = path.join(dir, "data");
  const port = await sparePort();
  // As the cluster's owner; asynchronous, so the app under test keeps serving meanwhile.
  const command = (name: string, args: string[]): [string, string[]] =>
    root ? ["runuser", ["-u", "postgres", "--", path.join(bin, name), ...args]] : [path.join(bin, name), args];
  const run = async (name: string, args: string[]) => void (await exec(...command(name, args)));
  await run("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync"]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60`;
  const start = () => run("pg_ctl", ["-D", data, "-o", options, "-l", path.join(dir, "log"), "-w", "start"]);
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    // Fast shutdown: open connections are cut, as when a database server goes away.
    stop: () => run("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]),
    start,
    destroy() {
      try {
        execFileSync(...command("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]), { stdio: "pipe" });
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
