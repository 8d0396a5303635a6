import { randomUUID } from "node:crypto";
import { readFileSync, unlinkSync } from "node:fs";
import { open, readFile, stat, unlink } from "node:fs/promises";
import os from "node:os";
import { setTimeout as sleep } from "node:timers/promises";

// PGlite is PostgreSQL in single-user mode: it keeps no postmaster.pid of its own, so two
// processes on one data folder both write its WAL and pages, and the folder is lost. Every
// process that opens the folder first creates `<folder>.lock` with O_EXCL and writes who it is.
// A lock whose owner is gone (killed with SIGKILL, machine restarted) is taken over; a lock
// whose owner runs refuses the open with one sentence saying who holds it.

/** Who holds a data folder. */
export interface LockOwner {
  pid: number;
  hostname: string;
  /** Linux: the kernel's boot id, so a lock from before a restart is known to be dead. */
  bootId: string | null;
  /** Linux: the process's start time in clock ticks since boot, so a reused pid is not mistaken for the owner. */
  startTicks: string | null;
  startedAt: string;
  command: string;
  token: string;
}

export class DatabaseInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly lockFile: string,
    readonly owner: LockOwner,
  ) {
    super(inUseMessage(dataDir, lockFile, owner));
    this.name = "DatabaseInUseError";
  }

  /** "process 123 (next-server (v16.4.6), since …)": for a command's own sentence. */
  get holder(): string {
    return holderOf(this.owner);
  }
}

function holderOf(owner: LockOwner): string {
  const host = owner.hostname === os.hostname() ? "" : ` on host ${owner.hostname}`;
  return `process ${owner.pid}${host} (${owner.command}, since ${owner.startedAt})`;
}

function inUseMessage(dataDir: string, lockFile: string, owner: LockOwner): string {
  const who = holderOf(owner);
  if (owner.hostname !== os.hostname()) {
    return `The embedded database in ${dataDir} is locked by ${who}; if no Vigil runs there any more, delete ${lockFile} and try again.`;
  }
  if (owner.pid === process.pid) {
    return `The embedded database in ${dataDir} is already open in this process; use that handle instead of opening it twice.`;
  }
  return `The embedded database in ${dataDir} is in use by ${who}; only one process may open it at a time, so do this through the running app or stop that process first.`;
}

export interface DataDirLock {
  readonly lockFile: string;
  release(): void;
}

/** The lock file of a data folder: beside it, so backups of the folder never carry it. */
function lockFileOf(dataDir: string): string {
  return `${dataDir.replace(/[\\/]+$/, "")}.lock`;
}

function procStat(pid: number): { state: string; startTicks: string } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name may hold spaces and parentheses: fields are counted after its last ")".
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { state: fields[0], startTicks: fields[19] };
  } catch {
    return null;
  }
}

function bootId(): string | null {
  try {
    return readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
  } catch {
    return null;
  }
}

function describeSelf(): LockOwner {
  const script = process.argv[1]?.replace(/^.*[\\/]/, "") ?? "";
  return {
    pid: process.pid,
    hostname: os.hostname(),
    bootId: bootId(),
    startTicks: procStat(process.pid)?.startTicks ?? null,
    startedAt: new Date(Date.now() - process.uptime() * 1000).toISOString(),
    // Next.js names its process ("next-server (v16…)"); a script is named by its file.
    command: (process.title && !/(^|[\\/])node$/.test(process.title) ? process.title : `node ${script}`).slice(0, 120),
    token: randomUUID(),
  };
}

/** Whether the owner may still be running. Another host's process cannot be checked, so it counts as running. */
function ownerAlive(owner: LockOwner): boolean {
  if (owner.hostname !== os.hostname()) return true;
  const current = bootId();
  if (owner.bootId && current && owner.bootId !== current) return false;
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return false;
  }
  const status = procStat(owner.pid);
  if (status?.state === "Z" || status?.state === "X") return false;
  if (status && owner.startTicks && status.startTicks !== owner.startTicks) return false;
  return true;
}

function parseOwner(text: string): LockOwner | null {
  try {
    const value = JSON.parse(text) as Partial<LockOwner>;
    return typeof value.pid === "number" && typeof value.hostname === "string" ? (value as LockOwner) : null;
  } catch {
    return null;
  }
}

async function readText(file: string): Promise<string | null> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

async function ageMs(file: string): Promise<number> {
  try {
    return Date.now() - (await stat(file)).mtimeMs;
  } catch {
    return 0;
  }
}

async function createExclusive(file: string, content: string): Promise<boolean> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, "wx", 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  try {
    await handle.writeFile(content);
    await handle.sync();
  } finally {
    await handle.close();
  }
  return true;
}

/** A lock file that is being written this instant looks empty; give its writer this long. */
const WRITING_GRACE_MS = 2000;
/** Taking over a stale lock is a read and an unlink: a guard older than this was left by a crash. */
const TAKEOVER_GUARD_STALE_MS = 10_000;

/**
 * Replaces a stale lock. Two processes may find the same stale lock at once: a guard file
 * created with O_EXCL lets one of them remove it, and only if the lock still holds what was
 * judged stale, so neither can remove a lock the other has just taken.
 */
async function removeStale(lockFile: string, staleText: string): Promise<void> {
  const guard = `${lockFile}.takeover`;
  if (!(await createExclusive(guard, String(process.pid)))) {
    if ((await ageMs(guard)) > TAKEOVER_GUARD_STALE_MS) await unlink(guard).catch(() => {});
    return;
  }
  try {
    if ((await readText(lockFile)) === staleText) await unlink(lockFile).catch(() => {});
  } finally {
    await unlink(guard).catch(() => {});
  }
}

/**
 * Takes the data folder's lock or throws DatabaseInUseError. The lock is let go by `release()`,
 * and at the latest when the process exits normally; a killed process leaves a stale lock that
 * the next open takes over.
 */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  const lockFile = lockFileOf(dataDir);
  const self = describeSelf();
  const content = `${JSON.stringify(self, null, 2)}\n`;
  for (let attempt = 0; attempt < 50; attempt++) {
    if (await createExclusive(lockFile, content)) return heldLock(lockFile, self.token);
    const text = await readText(lockFile);
    if (text === null) continue;
    const owner = parseOwner(text);
    if (owner && ownerAlive(owner)) throw new DatabaseInUseError(dataDir, lockFile, owner);
    if (!owner && (await ageMs(lockFile)) < WRITING_GRACE_MS) {
      await sleep(50);
      continue;
    }
    await removeStale(lockFile, text);
    await sleep(10 + Math.random() * 40);
  }
  throw new Error(`Could not take the lock ${lockFile}; remove it if no process uses ${dataDir}.`);
}

function heldLock(lockFile: string, token: string): DataDirLock {
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    process.off("exit", release);
    try {
      // Only our own lock: had it been taken over meanwhile, it is no longer ours to remove.
      if (parseOwner(readFileSync(lockFile, "utf8"))?.token === token) unlinkSync(lockFile);
    } catch {
      // Already gone.
    }
  };
  process.on("exit", release);
  return { lockFile, release };
}
