import type { DataSourceKind } from "./contract";

/** A connection string without its credentials or options: `host:port/database`. */
export function redactConnection(kind: DataSourceKind, connectionString: string): string {
  if (kind === "warehouse") return "embedded demo warehouse";
  try {
    const url = new URL(connectionString);
    const port = url.port || (kind === "mysql" ? "3306" : "5432");
    const database = decodeURIComponent(url.pathname.replace(/^\//, "")) || "(default database)";
    return `${url.hostname}:${port}/${database}`;
  } catch {
    return "(unreadable connection string)";
  }
}
