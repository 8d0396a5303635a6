import "server-only";

export {
  backupDirOf,
  backupEmbeddedDatabase,
  listBackups,
  restoreEmbeddedDatabase,
} from "./backup";
export type { Database, Db, Notifications } from "./client";
export { configFromEnv, getDatabase, openDatabase, setActiveDatabase, usingActiveDatabaseOverride } from "./client";
export { DatabaseUnreadableError, exitIfDatabaseUnusable, openEmbedded } from "./embedded";
export { isDatabaseBusy, isDatabaseUnavailable, isUniqueViolation, someCause } from "./errors";
export { decodeCursor, encodeCursor, isUuid, keysetParts } from "./keyset";
export { currentLane, inLane, type Lane, type LaneHolder } from "./lanes";
export { DatabaseInUseError } from "./lock";
export { rowsOf } from "./rows";
export * as schema from "./schema";
export type { TenantScope, Tx } from "./tenant";
export { tenantStatement, withAppRole, withTenant } from "./tenant";
