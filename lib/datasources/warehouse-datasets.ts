import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { keyFingerprint } from "./keys";
import type { ScriptLoadReport } from "./script-loader";

// The demo warehouse's datasets and how a copy of them is recognised, shared by both homes the
// warehouse can have: an embedded PGlite (warehouse.ts) and the server database Vigil runs on
// (server-warehouse.ts).

export interface Dataset {
  schema: "northwind" | "chinook" | "pagila";
  /** Paths relative to the datasets folder, loaded in order. */
  files: string[];
}

export const DATASETS: Dataset[] = [
  { schema: "northwind", files: ["northwind/northwind.sql"] },
  { schema: "chinook", files: ["chinook/Chinook_PostgreSql.sql"] },
  { schema: "pagila", files: ["sakila/pagila-schema.sql", "sakila/pagila-data.sql"] },
];

/** Bump when loading changes what a dataset's schema ends up holding: every dataset reloads once. */
export const LOADER_VERSION = "1";

export interface DatasetStatus {
  schema: string;
  state: "loaded" | "unchanged" | "missing" | "refused";
  /** What the loader skipped (statements and meta-commands), when it loaded. */
  report?: ScriptLoadReport;
  missingFiles?: string[];
  /** Why a dataset was not loaded although its files are there. */
  reason?: string;
}

export type DatasetScripts =
  | { ok: true; texts: string[]; files: Record<string, string>; version: string }
  | { ok: false; missingFiles: string[] };

/** The script as shipped (`x.sql.gz`) or as published (`x.sql`); null when neither is there. */
function scriptPath(file: string): string | null {
  if (existsSync(file)) return file;
  return existsSync(`${file}.gz`) ? `${file}.gz` : null;
}

async function readScript(file: string): Promise<string> {
  const bytes = await readFile(file);
  return (file.endsWith(".gz") ? gunzipSync(bytes) : bytes).toString("utf8");
}

/**
 * A dataset's scripts and the version a loaded copy of them is marked with: the files (by
 * SHA-256, as text, so a copy that only changed its compression loads nothing again), the
 * loader, and — for Northwind — the key its personal fields are encrypted with.
 */
export async function readDataset(dataset: Dataset, datasetsDir: string, key: string): Promise<DatasetScripts> {
  const wanted = dataset.files.map((f) => path.join(datasetsDir, f));
  const paths = wanted.map(scriptPath);
  const missingFiles = wanted.filter((_, i) => paths[i] === null);
  if (missingFiles.length > 0) return { ok: false, missingFiles };
  const texts = await Promise.all(paths.map((p) => readScript(p as string)));
  const files = Object.fromEntries(
    dataset.files.map((f, i) => [f, createHash("sha256").update(texts[i]).digest("hex")]),
  );
  const version = createHash("sha256")
    .update(
      JSON.stringify({
        loader: LOADER_VERSION,
        files,
        key: dataset.schema === "northwind" ? keyFingerprint(key) : null,
      }),
    )
    .digest("hex");
  return { ok: true, texts, files, version };
}

/** Adds one script's report to a dataset's, naming the file each skipped item came from. */
export function mergeReport(into: ScriptLoadReport, part: ScriptLoadReport, file: string): void {
  into.statements += part.statements;
  into.copies += part.copies;
  into.copiedRows += part.copiedRows;
  into.skipped.push(...part.skipped.map((s) => ({ ...s, what: `${file}: ${s.what}` })));
}
