import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { TSX_NODE_ARGS } from "../support/scripts";

export interface Spawned {
  child: ChildProcess;
  /** The next JSON line the process prints. */
  next(): Promise<Record<string, unknown>>;
  send(line: string): void;
  exited: Promise<number | null>;
  stderr(): string;
}

const running = new Set<Spawned>();

/** Ends, by their process group, the scripts a failed test left running. */
export async function killLeftovers(): Promise<void> {
  await Promise.all([...running].map((spawned) => kill9(spawned)));
}

/**
 * A server script in a process of its own, as an operator runs it (`tsx --import
 * ./scripts/server-only-node.mjs …`), in its own process group so that SIGKILL reaches whatever
 * it starts. tsx is a loader in that one node process: its launcher would start a second node
 * for each script, and these suites start dozens.
 */
export function spawnScript(args: string[], env: Record<string, string>): Spawned {
  const child = spawn(process.execPath, [...TSX_NODE_ARGS, ...args], {
    env: { ...process.env, DATABASE_URL: "", ...env },
    stdio: ["pipe", "pipe", "pipe"],
    detached: true,
  });
  let err = "";
  child.stderr?.on("data", (d) => {
    err += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const spawned = {} as Spawned;
  running.add(spawned);
  exited.then(() => running.delete(spawned));
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on("line", (line) => {
    const waiter = waiting.shift();
    if (waiter) waiter(line);
    else lines.push(line);
  });
  const nextLine = () =>
    new Promise<string>((resolve, reject) => {
      const ready = lines.shift();
      if (ready !== undefined) return resolve(ready);
      waiting.push(resolve);
      exited.then((code) => reject(new Error(`exited ${code} before printing: ${err.slice(-2000)}`)));
    });
  return Object.assign(spawned, {
    child,
    async next() {
      for (;;) {
        const line = await nextLine();
        if (line.startsWith("{")) return JSON.parse(line);
      }
    },
    send: (line: string) => child.stdin?.write(`${line}\n`),
    exited,
    stderr: () => err,
  });
}

/** Runs a script to its end: exit code and what it printed. */
export async function runScript(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const spawned = spawnScript(args, env);
  spawned.child.stdin?.end();
  let stdout = "";
  spawned.child.stdout?.on("data", (d) => {
    stdout += d;
  });
  const code = await spawned.exited;
  return { code, stdout, stderr: spawned.stderr() };
}

/** Whether a process has ended (a zombie waiting to be reaped has). */
function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return /^[ZX]/.test(stat.slice(stat.lastIndexOf(")") + 2));
  } catch {
    return true;
  }
}

/**
 * SIGKILL to the whole process group, as `kill -9` would end a server; resolves once the script
 * has exited and `pid` (the process it reported, when known) is gone too.
 */
export async function kill9(spawned: Spawned, pid?: number): Promise<void> {
  if (spawned.child.exitCode === null && spawned.child.signalCode === null) {
    process.kill(-(spawned.child.pid as number), "SIGKILL");
  }
  await spawned.exited;
  for (let waited = 0; pid !== undefined && !gone(pid); waited += 20) {
    if (waited > 10_000) throw new Error(`process ${pid} outlived SIGKILL`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
