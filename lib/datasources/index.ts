// Tenant-scoped registrations of business databases (PostgreSQL, MySQL/MariaDB, the embedded
// demo warehouse) and read-only, bounded connections to them for the SQL analyst.
import "server-only";

export type { SourceCatalog } from "./connector";
export { serverWarehouseOfProcess } from "./demo-warehouse";
export {
  currentJoinGraph,
  getJoinGraphVersion,
  listJoinGraphVersions,
  prepareJoinGraph,
  setJoinGraphOverrides,
} from "./join-graphs";
export { PERSONAL_FIELDS } from "./northwind-personal";
export { readPsqlScript } from "./psql-script";
export { getRegistries, setRegistry } from "./registries";
export {
  acceptSourceRisk,
  createDataSource,
  dataSourceChoices,
  getDataSource,
  listDataSources,
  querySource,
  registerDemoWarehouse,
  removeDataSource,
  setDefaultDataSource,
  sourceDisabledReason,
  testDataSource,
  usableDataSource,
  withSourceConnection,
} from "./registry";
export { loadPsqlScript } from "./script-loader";
export { loadServerWarehouse } from "./server-warehouse";
export { statementCatalog } from "./source-schema";
export {
  closeWarehouse,
  DATASETS,
  openWarehouse,
  SHIPPED_DATASETS_DIR,
  setWarehouse,
  warehouseOptionsFromEnv,
} from "./warehouse";
