import { sql } from "drizzle-orm";
import { getDatabase } from "@/lib/db";
import { configuredEngine } from "@/lib/engine";
import { sweepStatuses } from "@/lib/process";
import { configuredEmbeddingProvider } from "@/lib/rag";
import packageJson from "@/package.json";

export interface Health {
  status: "ok" | "degraded";
  db: "pglite" | "postgres";
  engine: string;
  version: string;
  retrieval: "hybrid" | "lexical";
  /** This process's background sweeps: when each last finished and whether that pass failed. */
  sweeps: { name: string; everyMs: number; passes: number; lastFinishedAt: string | null; failing: boolean }[];
}

/** Liveness plus what this instance runs on; answers without auth, so it names no secrets. */
export async function health(): Promise<Health> {
  const database = await getDatabase();
  await database.db.execute(sql`select 1`);
  return {
    status: "ok",
    db: database.kind,
    engine: configuredEngine(),
    version: packageJson.version,
    // Hybrid takes both pgvector and an embedding provider to make the vectors.
    retrieval: database.vector && configuredEmbeddingProvider() ? "hybrid" : "lexical",
    // The failure's message stays in the log: health answers without auth.
    sweeps: sweepStatuses().map((s) => ({
      name: s.name,
      everyMs: s.everyMs,
      passes: s.passes,
      lastFinishedAt: s.lastFinishedAt,
      failing: s.lastError !== null,
    })),
  };
}
