// The time limits of every connection to a data source (see deadline.ts). Test must answer in
// under ten seconds, whatever is listening at the target.

/** TCP connect, TLS, the protocol handshake and the sign-in, until the server is ready. */
export const CONNECT_TIMEOUT_MS = 5_000;
/** Name resolution, the connection and the session's settings, as one call. */
export const OPEN_DEADLINE_MS = 7_000;
/** A Test, from the first byte to the report. */
export const TEST_DEADLINE_MS = 9_000;
/** Past the source's statement timeout, how long the client waits before it cuts the connection. */
export const STATEMENT_GRACE_MS = 3_000;
/** Catalog and introspection reads: several statements, each under the statement timeout. */
export const CATALOG_DEADLINE_MS = 30_000;
/**
 * A Test of the embedded demo warehouse: no network target, but its first use loads the sample
 * databases (about ten seconds, longer on a busy machine), which must not read as unreachable.
 */
export const WAREHOUSE_TEST_DEADLINE_MS = 300_000;
