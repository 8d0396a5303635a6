import { lookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";
import { z } from "zod";
import { config } from "@/lib/config";
import { configFromEnv } from "@/lib/db";
import type { ConnectionTarget } from "./connection-target";

// Where a data source may connect: the deployment's egress policy, read here and nowhere else.
//
//   VIGIL_DATASOURCE_ALLOW_HOSTS  unset: any public address, on the ports below. Set: only the
//                                 targets it names — comma-separated `pattern[:port]`, a pattern
//                                 being a host name, `*.suffix`, an IP address or a CIDR range —
//                                 and a named target may then be loopback, link-local or private.
//                                 A pattern without a port allows any port.
//   VIGIL_DATASOURCE_ALLOW_PORTS  the ports a public target may use while no list is set
//                                 (default 1024-65535: no well-known service port).
//
// A name is resolved and every address it resolves to is checked (the connection then goes to
// one of those addresses, so the name cannot resolve differently a moment later). Unix sockets
// are never used (the connection string cannot name one), and the application's own database is
// refused whatever the policy says.

/** The policy refused the target; what the admin is told says why, and nothing about the target's state. */
export class EgressRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EgressRefusedError";
  }
}

/** The name did not resolve: to the client, one more way a source cannot be reached. */
export class UnknownHostError extends Error {
  constructor(host: string) {
    super(`The host ${host} did not resolve.`);
    this.name = "UnknownHostError";
  }
}

type Address = ipaddr.IPv4 | ipaddr.IPv6;

interface HostRule {
  kind: "name" | "suffix" | "address" | "range";
  name?: string;
  range?: [Address, number];
  /** Unset: any port. */
  port?: number;
}

interface EgressPolicy {
  /** Null: public addresses only, on `ports`. */
  hosts: HostRule[] | null;
  ports: [number, number][];
}

const PortNumber = z.coerce.number().int().min(1).max(65_535);

const HostPattern = z
  .string()
  .trim()
  .min(1)
  .transform((text, ctx): HostRule => {
    // `[v6]:port`, `host:port`, `v4/24`, a bare IPv6 address (more than one colon, no brackets).
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
    let host = text;
    let port: number | undefined;
    if (bracketed) {
      host = bracketed[1];
      if (bracketed[2]) port = PortNumber.parse(bracketed[2]);
    } else if ((text.match(/:/g) ?? []).length === 1) {
      const at = text.lastIndexOf(":");
      host = text.slice(0, at);
      const parsed = PortNumber.safeParse(text.slice(at + 1));
      if (!parsed.success) {
        ctx.addIssue({ code: "custom", message: `“${text}”: the port must be 1-65535` });
        return z.NEVER;
      }
      port = parsed.data;
    }
    host = host.toLowerCase();
    if (host.includes("/")) {
      try {
        return { kind: "range", range: ipaddr.parseCIDR(host), port };
      } catch {
        ctx.addIssue({ code: "custom", message: `“${text}” is not a CIDR range` });
        return z.NEVER;
      }
    }
    if (ipaddr.isValid(host)) return { kind: "address", range: [ipaddr.process(host), 128], port };
    if (host.startsWith("*.")) return { kind: "suffix", name: host.slice(1), port };
    if (/^[a-z0-9.-]+$/.test(host)) return { kind: "name", name: host.replace(/\.$/, ""), port };
    ctx.addIssue({ code: "custom", message: `“${text}” is not a host name, address or range` });
    return z.NEVER;
  });

const PortRange = z
  .string()
  .trim()
  .regex(/^\d+(-\d+)?$/, "a port or a range like 1024-65535")
  .transform((text): [number, number] => {
    const [low, high = low] = text.split("-").map((p) => PortNumber.parse(p));
    return [Math.min(low, high), Math.max(low, high)];
  });

/** A comma-separated list, empty entries ignored. */
const commaList = z.string().transform((text) => text.split(",").filter((part) => part.trim() !== ""));

const PolicySettings = z.object({
  hosts: commaList.pipe(z.array(HostPattern)).optional(),
  ports: commaList.pipe(z.array(PortRange)).default([[1024, 65_535]]),
});
const SETTING_OF = { hosts: "VIGIL_DATASOURCE_ALLOW_HOSTS", ports: "VIGIL_DATASOURCE_ALLOW_PORTS" } as const;

let cached: { key: string; policy: EgressPolicy } | null = null;

/** The policy in force, from the environment (read again when it changes, as tests change it). */
function policyFromEnv(env: NodeJS.ProcessEnv = process.env): EgressPolicy {
  const { datasourceAllowHosts: hosts, datasourceAllowPorts: ports } = config(env);
  const key = `${hosts ?? "\0"}|${ports ?? "\0"}`;
  if (cached?.key === key) return cached.policy;
  const parsed = PolicySettings.safeParse({ hosts, ports });
  if (!parsed.success) {
    // A policy that does not parse allows nothing rather than everything.
    const detail = parsed.error.issues
      .map(
        ({ path, message }) =>
          `${[SETTING_OF[path[0] as keyof typeof SETTING_OF], ...path.slice(1)].join(".")}: ${message}`,
      )
      .join("; ");
    throw new EgressRefusedError(`The deployment's data-source egress policy is invalid (${detail}).`);
  }
  const policy = {
    hosts: parsed.data.hosts ?? null,
    ports: parsed.data.ports,
  };
  cached = { key, policy };
  return policy;
}

function ruleMatches(rule: HostRule, host: string, address: Address, port: number): boolean {
  if (rule.port !== undefined && rule.port !== port) return false;
  switch (rule.kind) {
    case "name":
      return host === rule.name;
    case "suffix":
      return host.endsWith(rule.name as string);
    case "address":
    case "range": {
      const [base, bits] = rule.range as [Address, number];
      if (base.kind() !== address.kind()) return false;
      return rule.kind === "address" ? base.toString() === address.toString() : address.match(base, bits);
    }
  }
}

const REFUSED = "This deployment does not allow data sources at that address.";

/** Checks one resolved address of the target against the policy. */
function checkAddress(policy: EgressPolicy, host: string, address: Address, port: number): void {
  if (policy.hosts) {
    if (!policy.hosts.some((rule) => ruleMatches(rule, host, address, port))) {
      throw new EgressRefusedError(`${REFUSED} The operator allows only the hosts in VIGIL_DATASOURCE_ALLOW_HOSTS.`);
    }
    return;
  }
  if (address.range() !== "unicast") {
    throw new EgressRefusedError(
      `${REFUSED} Loopback, link-local and private addresses are refused unless the operator lists them in VIGIL_DATASOURCE_ALLOW_HOSTS.`,
    );
  }
  if (!policy.ports.some(([low, high]) => port >= low && port <= high)) {
    throw new EgressRefusedError(`${REFUSED} Port ${port} is outside VIGIL_DATASOURCE_ALLOW_PORTS.`);
  }
}

async function resolve(host: string): Promise<Address[]> {
  if (ipaddr.isValid(host)) return [ipaddr.process(host)];
  try {
    const found = await lookup(host, { all: true, verbatim: true });
    return found.map((entry) => ipaddr.process(entry.address));
  } catch {
    throw new UnknownHostError(host);
  }
}

const isLoopback = (a: Address) => a.range() === "loopback";

/** The application's own server database, when it has one: its addresses, port and database. */
async function ownDatabase(): Promise<{ addresses: Address[]; port: number; database: string } | null> {
  const url = configFromEnv().url;
  if (!url) return null;
  try {
    const parsed = new URL(url);
    const user = decodeURIComponent(parsed.username) || "postgres";
    return {
      addresses: await resolve(parsed.hostname.replace(/^\[|\]$/g, "")).catch(() => []),
      port: parsed.port ? Number(parsed.port) : 5432,
      database: decodeURIComponent(parsed.pathname.replace(/^\//, "")) || user,
    };
  } catch {
    return null;
  }
}

function isOwnDatabase(target: ConnectionTarget, addresses: Address[], own: Awaited<ReturnType<typeof ownDatabase>>) {
  if (!own || target.dialect !== "postgres" || target.port !== own.port) return false;
  if ((target.database || target.user) !== own.database) return false;
  return addresses.some((a) =>
    own.addresses.some((b) => a.toString() === b.toString() || (isLoopback(a) && isLoopback(b))),
  );
}

/**
 * The address to connect to for this target, once the policy allows every address the host
 * resolves to; refuses the application's own database always.
 */
export async function allowedAddress(target: ConnectionTarget): Promise<string> {
  const policy = policyFromEnv();
  const host = target.host.toLowerCase().replace(/\.$/, "");
  const addresses = await resolve(host);
  if (addresses.length === 0) throw new UnknownHostError(host);
  if (isOwnDatabase(target, addresses, await ownDatabase())) {
    throw new EgressRefusedError("This is the application's own database; it cannot be registered as a data source.");
  }
  for (const address of addresses) checkAddress(policy, host, address, target.port);
  return addresses[0].toString();
}
