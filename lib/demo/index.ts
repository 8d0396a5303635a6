// The demo tenants, accounts, agents and knowledge corpus an empty embedded database is seeded
// with (and `npm run db:seed` loads into a server database).
export { type SeedOptions, seedDemo } from "./accounts";
export { type CorpusDocument, KNOWLEDGE_CORPUS } from "./corpus";
export { seedKnowledgeCorpus } from "./knowledge";
export { DEMO_PASSWORD, SEED_TENANTS } from "./tenants";
