import { parseConnectionTarget } from "./connection-target";
import type { ConnectorSettings, DestroyableConnection, SourceConnection } from "./connector";
import { withDeadline } from "./deadline";
import { serverWarehouseOfProcess } from "./demo-warehouse";
import { allowedAddress, EgressRefusedError } from "./egress-policy";
import { CATALOG_DEADLINE_MS, OPEN_DEADLINE_MS, STATEMENT_GRACE_MS } from "./limits";
import { openMysqlSource } from "./mysql-connector";
import { openPostgresSource } from "./postgres-connector";
import { openServerWarehouseSource, openWarehouseSource } from "./warehouse-connector";

/**
 * Opens a bounded, read-only connection to a source of any kind. Close it when done. A network
 * source is opened only at an address the egress policy allows, within OPEN_DEADLINE_MS, and
 * every call on it ends by its deadline (the connection is destroyed then).
 */
export function openSourceConnection(settings: ConnectorSettings): Promise<SourceConnection> {
  if (settings.kind === "warehouse") return openDemoWarehouse(settings);
  const dialect = settings.kind;
  const parsed = parseConnectionTarget(dialect, settings.connectionString);
  // A stored string that no longer passes (registered before the rules) is refused, not tried.
  if (!parsed.ok) return Promise.reject(new EgressRefusedError(parsed.problem));
  const { target } = parsed;
  return withDeadline("Connecting to the data source", OPEN_DEADLINE_MS, async (signal) => {
    const address = await allowedAddress(target);
    signal.throwIfAborted();
    const open = dialect === "postgres" ? openPostgresSource : openMysqlSource;
    const connection = await open(settings, target, address, signal);
    if (signal.aborted) connection.destroy();
    return bounded(connection, settings.statementTimeoutMs + STATEMENT_GRACE_MS);
  });
}

/**
 * The demo warehouse where this process keeps it: embedded, or in the server database (loaded
 * there first if this is its first use, without a deadline: the load is once per deployment).
 */
async function openDemoWarehouse(settings: ConnectorSettings): Promise<SourceConnection> {
  const server = await serverWarehouseOfProcess();
  if (!server) return openWarehouseSource(settings);
  return withDeadline("Connecting to the data source", OPEN_DEADLINE_MS, async (signal) => {
    const connection = await openServerWarehouseSource(settings, server, signal);
    if (signal.aborted) connection.destroy();
    return bounded(connection, settings.statementTimeoutMs + STATEMENT_GRACE_MS);
  });
}

/** The connection with every call under a deadline that destroys it when passed. */
function bounded(connection: DestroyableConnection, statementDeadlineMs: number): SourceConnection {
  const limit =
    <T>(what: string, ms: number, call: () => Promise<T>) =>
    (): Promise<T> =>
      withDeadline(what, ms, (signal) => {
        signal.addEventListener("abort", () => connection.destroy(), { once: true });
        return call();
      });
  return {
    kind: connection.kind,
    select: (sql, params) => limit("The query", statementDeadlineMs, () => connection.select(sql, params))(),
    catalog: limit("Reading the catalog", CATALOG_DEADLINE_MS, () => connection.catalog()),
    introspect: limit("Reading the schema", CATALOG_DEADLINE_MS, () => connection.introspect()),
    inspect: limit("Inspecting the source", CATALOG_DEADLINE_MS, () => connection.inspect()),
    close: () => connection.close(),
  };
}
