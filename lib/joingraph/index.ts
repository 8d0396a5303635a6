// The SQL analyst's join graph (the SQL analyst design, "Join Graph Pipeline"): catalog
// introspection, name heuristics, manual overrides, a content version, and the path finder with
// join plans and bridge-table discovery. Pure functions over a client the caller passes;
// storing graphs is another module's job.
import "server-only";

export { findBridgeTables } from "./bridges";
export { buildJoinGraph } from "./build";
export {
  type CatalogClient,
  mysqlCatalogClient,
  pgliteCatalogClient,
  postgresCatalogClient,
  type SchemaCatalog,
} from "./catalog";
export { joinCost } from "./graph-index";
export { introspectMysql } from "./introspect-mysql";
export { introspectPostgres } from "./introspect-postgres";
export { HEURISTIC_CONFIDENCE } from "./naming";
export { applyOverrides, parseOverrides } from "./overrides";
export {
  clearPathCache,
  createPathFinder,
  type JoinPathFinder,
  type JoinPlan,
  PATH_DEFAULTS,
  type PathOptions,
} from "./path-finder";
export { graphVersionHash } from "./version";
