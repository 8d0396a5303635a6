// What a data source's connection string may say, for both dialects: one host (a name or an IP
// address, never a Unix socket), a port, a user, a password, a database, and one option — how TLS
// is used. Anything else the drivers would honour from the string (mysql2 reads every query
// parameter as a connection option: `multipleStatements`, `socketPath`, `ssl`, `flags`…; postgres.js
// sends unknown ones as server settings) is refused by name, so the connector's own settings can
// never be overridden from the string. Client-safe: the form and the contract validate with it.

export type TargetDialect = "postgres" | "mysql";

/** `off`: plain TCP, as the drivers default; `verify`: TLS with the certificate and host verified. */
export type TargetTls = "off" | "verify";

export interface ConnectionTarget {
  dialect: TargetDialect;
  /** A DNS name or an IP address (IPv6 without brackets). */
  host: string;
  port: number;
  user: string;
  password: string;
  /** Empty: the driver's default (PostgreSQL: the user's name; MySQL: none). */
  database: string;
  tls: TargetTls;
}

const SCHEMES: Record<TargetDialect, string[]> = {
  postgres: ["postgres:", "postgresql:"],
  mysql: ["mysql:", "mariadb:"],
};
const DEFAULT_PORTS: Record<TargetDialect, number> = { postgres: 5432, mysql: 3306 };

/** The one option allowed, and the values that keep TLS on and verified. */
const TLS_OPTION: Record<TargetDialect, { names: string[]; verify: string[] }> = {
  postgres: { names: ["sslmode"], verify: ["require", "verify-ca", "verify-full"] },
  mysql: { names: ["ssl-mode", "sslmode"], verify: ["required", "verify_ca", "verify_identity"] },
};

/** A host name (letters, digits, hyphens, dots) or an IPv4 address; IPv6 comes in brackets. */
const HOST_NAME =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$/;
const IPV6 = /^\[[0-9A-Fa-f:.]+\]$/;

export type TargetParse = { ok: true; target: ConnectionTarget } | { ok: false; problem: string };

/** Parses a connection string into the one target it may name, or says what is wrong with it. */
export function parseConnectionTarget(dialect: TargetDialect, value: string | undefined): TargetParse {
  const fail = (problem: string): TargetParse => ({ ok: false, problem });
  const example = `${SCHEMES[dialect][0]}//user:password@host:port/database`;
  if (!value) return fail("A connection string is required.");
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return fail(`Write it as a URL: ${example}`);
  }
  if (!SCHEMES[dialect].includes(url.protocol))
    return fail(`A ${dialect} connection string starts with ${SCHEMES[dialect][0]}//`);
  if (!url.hostname) return fail("The connection string names no host; a Unix socket cannot be used.");
  if (!HOST_NAME.test(url.hostname) && !IPV6.test(url.hostname)) {
    return fail("The host must be one DNS name or IP address (no list of hosts, no socket path).");
  }
  let decoded: { user: string; password: string; database: string };
  try {
    decoded = {
      user: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
      database: decodeURIComponent(url.pathname.replace(/^\//, "")),
    };
  } catch {
    return fail("The user, password or database has a broken %-escape.");
  }
  if (!decoded.user) return fail("The connection string names no user.");
  if (decoded.database.includes("/")) return fail(`Name one database after the host: ${example}`);
  if (url.hash) return fail("The connection string cannot have a #fragment.");
  const option = TLS_OPTION[dialect];
  let tls: TargetTls = "off";
  for (const [name, raw] of url.searchParams) {
    if (!option.names.includes(name.toLowerCase())) {
      return fail(
        `The option “${name}” is not allowed here; the only option is ${option.names[0]}=${option.verify.join("|")}.`,
      );
    }
    if (!option.verify.includes(raw.toLowerCase())) {
      return fail(`${name}=${raw} would turn TLS or its certificate check off; use ${option.verify.join(", ")}.`);
    }
    tls = "verify";
  }
  const port = url.port ? Number(url.port) : DEFAULT_PORTS[dialect];
  if (!Number.isInteger(port) || port < 1 || port > 65_535) return fail("The port must be between 1 and 65535.");
  return {
    ok: true,
    target: { dialect, host: url.hostname.replace(/^\[|\]$/g, ""), port, ...decoded, tls },
  };
}
