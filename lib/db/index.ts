export type { Database, DatabaseConfig, Db, DbKind } from "./client";
export { configFromEnv, getDatabase, openDatabase, setActiveDatabase } from "./client";
export { isUniqueViolation } from "./errors";
export { rowsOf } from "./rows";
export * as schema from "./schema";
export { type SeedOptions, seedDemo } from "./seed";
export { DEMO_PASSWORD, SEED_TENANTS } from "./seed-data";
export type { TenantScope, Tx } from "./tenant";
export { tenantStatement, withAppRole, withTenant } from "./tenant";
