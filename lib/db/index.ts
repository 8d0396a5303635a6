import "server-only";

export type { Database, Db } from "./client";
export { configFromEnv, getDatabase, openDatabase, setActiveDatabase, usingActiveDatabaseOverride } from "./client";
export { isUniqueViolation } from "./errors";
export { rowsOf } from "./rows";
export * as schema from "./schema";
export type { TenantScope, Tx } from "./tenant";
export { tenantStatement, withAppRole, withTenant } from "./tenant";
