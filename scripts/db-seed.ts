// Seeds the demo tenants. Refuses under NODE_ENV=production unless --force is given.
import { closeWarehouse } from "@/lib/datasources";
import { configFromEnv, openDatabase, setActiveDatabase } from "@/lib/db";
import { prepareDemoJoinGraphs, seedDemo, seedDemoDataSources, seedKnowledgeCorpus } from "@/lib/demo";

const force = process.argv.includes("--force");
const database = await openDatabase(configFromEnv());
// The tenant-scoped calls (the join graphs' build) use this connection rather than opening another.
setActiveDatabase(database);
try {
  const identity = process.env.AUTH_MODE === "supabase" ? "supabase" : "local";
  const { created } = await seedDemo(database, { force, identity });
  console.log(created ? "Seeded tenants demo and acme." : "Already seeded; nothing changed.");
  const corpus = await seedKnowledgeCorpus(database);
  console.log(`Knowledge base: ${corpus.created} demo documents added.`);
  const sources = await seedDemoDataSources(database);
  console.log(`Data sources: the demo warehouse registered for ${sources.registered} tenant(s).`);
  // Built now, so the first look at the demo warehouse (and the analyst's first question) does not wait for it.
  const graphs = await prepareDemoJoinGraphs(database);
  console.log(`Join graphs: ${graphs.prepared} built.`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  // The embedded warehouse the build opened would keep the process alive.
  await closeWarehouse();
  await database.close();
}
