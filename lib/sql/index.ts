// The SQL analyst's safety and validation layer (DESIGN.md, "SQL analyst"; the design's
// "Pre-Execution Validation" and "Secure Views"): what a generated statement must pass before
// it runs, and what the correction agent is told when it does not.
import "server-only";

export type { CatalogColumn, CatalogTable, SqlCatalog } from "./catalog";
export type { SqlDialect } from "./dialect";
export { SQL_FORBIDDEN_FUNCTIONS } from "./forbidden-functions";
export { type GuardedSql, type GuardOptions, type GuardResult, guardSql } from "./guard";
export { SQL_REFUSAL_CODES, type SqlRefusalCode } from "./refusals";
export type { SecureViewMap } from "./table-policy";
export { type SqlFinding, type SqlValidation, validateSql } from "./validate";
