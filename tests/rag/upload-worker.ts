// A server process that is killed mid-upload: it opens the embedded database its environment
// names, starts ingesting a large document into the demo tenant, and reports once part of it
// is indexed; then it waits to be killed.

import { eq } from "drizzle-orm";
import { configFromEnv, openDatabase, schema, setActiveDatabase } from "@/lib/db";
import { ingestDocument } from "@/lib/rag";
import { boot } from "@/lib/server";
import { largeMarkdown } from "./large-document";

const database = await openDatabase(configFromEnv());
setActiveDatabase(database);
await boot({ sweeps: false });
const [tenant] = await database.db.select().from(schema.tenants).where(eq(schema.tenants.slug, "demo"));
let reported = false;
void ingestDocument(
  { tenantId: tenant.id },
  { format: "markdown", content: largeMarkdown(1024 * 1024, "interrupted"), domains: ["handbook"] },
  {
    createdBy: "crash-test",
    embeddings: null,
    onProgress: (progress) => {
      if (!reported && progress.phase === "indexing" && progress.chunksDone > 0) {
        reported = true;
        process.stdout.write(`${JSON.stringify({ status: "indexing", pid: process.pid, ...progress })}\n`);
      }
    },
  },
);
setInterval(() => {}, 1000);
