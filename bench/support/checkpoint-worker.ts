// One saver of the checkpoint benchmark in a process of its own, driven over IPC by
// bench/checkpoint.ts: each saver's latencies then carry only its own garbage collection, as in
// an application process that holds one saver, and never the other saver's.

import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { sql } from "drizzle-orm";
import { type Database, getDatabase, rowsOf } from "@/lib/db";
import { DrizzleCheckpointSaver } from "@/lib/graph-saver";
import { emptySamples, runThread, type Samples } from "./checkpoint-workload";
import { benchTenant } from "./tenant";

export type SaverKind = "ours" | "official" | "pglite";

export type WorkerRequest =
  | { type: "open"; kind: SaverKind; url?: string }
  | { type: "thread"; threadId: string; record: boolean }
  | { type: "close" };

export type WorkerReply =
  | { type: "opened"; version: string }
  | { type: "thread"; samples: Samples | null }
  | { type: "closed" }
  | { type: "error"; message: string };

interface Opened {
  saver: BaseCheckpointSaver;
  version: string;
  close: () => Promise<void>;
}

async function versionOf(database: Database): Promise<string> {
  const rows = rowsOf<{ version: string }>(await database.db.execute(sql`select version() as version`));
  return rows[0].version.split(" on ")[0].split(",")[0];
}

async function open(kind: SaverKind, url: string | undefined): Promise<Opened> {
  if (kind === "official") {
    if (!url) throw new Error("the official saver needs a database url");
    const saver = PostgresSaver.fromConnString(url);
    await saver.setup();
    return { saver, version: "", close: () => saver.end() };
  }
  if (kind === "ours") {
    // The application's own path: getDatabase() from DATABASE_URL, as a server deployment runs.
    if (!url) throw new Error("our server saver needs a database url");
    process.env.DATABASE_URL = url;
  } else {
    // Embedded mode as the app runs it without DATABASE_URL, in memory so no data folder is touched.
    delete process.env.DATABASE_URL;
    process.env.VIGIL_DATA_DIR = "memory://";
  }
  const database = await getDatabase();
  const saver = new DrizzleCheckpointSaver({ tenantId: await benchTenant(database, "Checkpoint benchmark") });
  return { saver, version: await versionOf(database), close: () => database.close() };
}

let opened: Opened | undefined;

async function handle(request: WorkerRequest): Promise<WorkerReply> {
  if (request.type === "open") {
    opened = await open(request.kind, request.url);
    return { type: "opened", version: opened.version };
  }
  if (!opened) throw new Error("no saver opened");
  if (request.type === "thread") {
    const samples = request.record ? emptySamples() : undefined;
    await runThread(opened.saver, request.threadId, samples);
    return { type: "thread", samples: samples ?? null };
  }
  await opened.close();
  return { type: "closed" };
}

process.on("message", (request: WorkerRequest) => {
  handle(request).then(
    (reply) => {
      process.send?.(reply);
      if (reply.type === "closed") process.disconnect();
    },
    (error: unknown) =>
      process.send?.({
        type: "error",
        message: error instanceof Error ? (error.stack ?? error.message) : String(error),
      }),
  );
});
