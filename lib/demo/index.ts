// The demo tenants, accounts, agents and knowledge corpus an empty embedded database is seeded
// with (and `npm run db:seed` loads into a server database).
import "server-only";

export { seedDemo } from "./accounts";
export { KNOWLEDGE_CORPUS } from "./corpus";
export { prepareDemoJoinGraphs, seedDemoDataSources } from "./data-sources";
export { seedKnowledgeCorpus } from "./knowledge";
export { SEED_TENANTS } from "./tenants";
