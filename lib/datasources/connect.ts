import type { ConnectorSettings, SourceConnection } from "./connector";
import { openMysqlSource } from "./mysql-connector";
import { openPostgresSource } from "./postgres-connector";
import { openWarehouseSource } from "./warehouse-connector";

/** Opens a bounded, read-only connection to a source of any kind. Close it when done. */
export function openSourceConnection(settings: ConnectorSettings): Promise<SourceConnection> {
  switch (settings.kind) {
    case "postgres":
      return openPostgresSource(settings);
    case "mysql":
      return openMysqlSource(settings);
    case "warehouse":
      return openWarehouseSource(settings);
  }
}
