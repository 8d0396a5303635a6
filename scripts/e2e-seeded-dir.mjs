// Gives an end-to-end server a seeded embedded database: `node scripts/e2e-seeded-dir.mjs <dir>`
// empties <dir> and copies into it a folder migrated and seeded once for this build (the demo
// tenants, knowledge corpus, data sources and join graphs, as `npm run db:seed` leaves them).
// Seeding an empty folder costs a server 20–60 s of CPU at its first request; the e2e lanes and
// the specs that start servers of their own did it six times a run. A server started on the copy
// still seeds on start, finding everything in place. The demo warehouse's folder (`<dir>-warehouse`)
// is copied beside it.
//
// The folder is made by the production build's own first start on an empty folder, without
// configuration (`next start`, until /api/health answers 200): the first boot the servers used to
// go through each is still gone through once a run, and the secrets it generates (auth secret,
// data-source and warehouse keys) are in the folder where every copy's server finds them. Then
// `db:seed`, in production too, builds what a server builds in the background: the demo join
// graphs and the warehouse they read.
//
// The folder is made once per build (keyed by .next/BUILD_ID), by whichever caller comes first;
// callers that start meanwhile wait for it. A folder half made by a process that died is made again.

import { spawn, spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const STALE_LOCK_MS = 10 * 60_000;
const WAIT_MS = 15 * 60_000;

function buildId() {
  try {
    return readFileSync(path.join(root, ".next", "BUILD_ID"), "utf8").trim();
  } catch {
    return "unbuilt";
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** `next start` on the empty folder `dataDir` until its health answers 200, then stopped. */
async function firstStart(dataDir) {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [path.join(root, "node_modules", "next", "dist", "bin", "next"), "start", "-p", String(port)],
    {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: "production",
        VIGIL_DATA_DIR: dataDir,
        DATABASE_URL: "",
        // db:seed builds them next, in the foreground.
        VIGIL_PREPARE_JOIN_GRAPHS: "off",
      },
      stdio: ["ignore", "ignore", "inherit"],
      detached: true,
    },
  );
  const exited = new Promise((resolve) => child.on("exit", (code) => resolve(code ?? 1)));
  let gone = null;
  exited.then((code) => {
    gone = code;
  });
  try {
    const started = Date.now();
    for (;;) {
      if (gone !== null) throw new Error(`next start on ${dataDir} exited (${gone}) before it answered`);
      if (Date.now() - started > WAIT_MS) throw new Error(`next start on ${dataDir} did not answer in time`);
      const status = await fetch(`http://127.0.0.1:${port}/api/health`).then(
        (res) => res.status,
        () => 0,
      );
      if (status === 200) break;
      await sleep(500);
    }
  } finally {
    if (gone === null) {
      process.kill(-child.pid, "SIGTERM");
      const grace = setTimeout(() => process.kill(-child.pid, "SIGKILL"), 15_000);
      await exited;
      clearTimeout(grace);
    }
  }
}

/** The seeded folder of this build, made if it is missing. */
export async function seededTemplate() {
  const template = path.join(root, ".data", `e2e-seeded-${buildId()}`);
  const ready = path.join(template, ".seeded");
  const lock = `${template}.lock`;
  const started = Date.now();
  while (!existsSync(ready)) {
    if (Date.now() - started > WAIT_MS) throw new Error(`the seeded folder ${template} was not made in time`);
    mkdirSync(path.dirname(template), { recursive: true });
    try {
      mkdirSync(lock);
    } catch (error) {
      if (error.code !== "EEXIST") throw error;
      // Another caller is making it; a lock left by a process that died is taken over.
      if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      await sleep(500);
      continue;
    }
    try {
      // Folders seeded for earlier builds are of no more use.
      const data = path.dirname(template);
      for (const name of readdirSync(data)) {
        if (/^e2e-seeded-/.test(name) && !name.startsWith(path.basename(template))) {
          rmSync(path.join(data, name), { recursive: true, force: true });
        }
      }
      const making = `${template}.making`;
      rmSync(making, { recursive: true, force: true });
      rmSync(`${making}-warehouse`, { recursive: true, force: true });
      await firstStart(making);
      const seeded = spawnSync(
        path.join(root, "node_modules", ".bin", "tsx"),
        ["--import", "./scripts/server-only-node.mjs", "scripts/db-seed.ts", "--force"],
        {
          cwd: root,
          stdio: ["ignore", "ignore", "inherit"],
          env: { ...process.env, NODE_ENV: "production", VIGIL_DATA_DIR: making, DATABASE_URL: "" },
        },
      );
      if (seeded.status !== 0) throw new Error(`seeding ${making} failed (exit ${seeded.status})`);
      writeFileSync(path.join(making, ".seeded"), new Date().toISOString());
      for (const [from, to] of [
        [`${making}-warehouse`, `${template}-warehouse`],
        [making, template],
      ]) {
        rmSync(to, { recursive: true, force: true });
        if (existsSync(from)) renameSync(from, to);
      }
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  return template;
}

/** Empties `dir` and fills it with a copy of the seeded folder. */
export async function seededDataDir(dir) {
  const template = await seededTemplate();
  const target = path.resolve(root, dir);
  rmSync(target, { recursive: true, force: true });
  rmSync(`${target}-warehouse`, { recursive: true, force: true });
  cpSync(template, target, { recursive: true, filter: (source) => path.basename(source) !== ".seeded" });
  if (existsSync(`${template}-warehouse`)) cpSync(`${template}-warehouse`, `${target}-warehouse`, { recursive: true });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2];
  if (!dir) {
    console.error("usage: node scripts/e2e-seeded-dir.mjs <data folder> | --prepare");
    process.exit(2);
  }
  // --prepare only makes the seeded folder (npm test does it once the build is done).
  if (dir === "--prepare") await seededTemplate();
  else await seededDataDir(dir);
}
