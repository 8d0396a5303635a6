import diagnostics from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import ipaddr from "ipaddr.js";
import { config } from "@/lib/config";
import { processSingleton } from "@/lib/process";

/**
 * The TCP peer of a request, written from the socket. Next.js route handlers see only headers:
 * Next.js fills `X-Forwarded-For` with the socket address only when the client sent none, so
 * without this header a client that sends its own `X-Forwarded-For` hides where it connects from.
 */
const PEER_HEADER = "x-vigil-peer-address";
// Route handlers and instrumentation are separate bundles of one process: the flag is process-wide.

type Ip = ipaddr.IPv4 | ipaddr.IPv6;
type Range = [Ip, number];

/**
 * Writes every incoming request's socket address into PEER_HEADER, replacing whatever a client
 * put there, through Node's own `http.server.request.start` channel (published before the server
 * hands the request to Next.js). Called once when the server process starts.
 */
export function recordPeerAddresses(): void {
  const state = recording();
  if (state.on) return;
  diagnostics.subscribe("http.server.request.start", (message) => {
    const { request, socket } = message as { request: IncomingMessage; socket: Socket };
    if (socket.remoteAddress) request.headers[PEER_HEADER] = socket.remoteAddress;
    else delete request.headers[PEER_HEADER];
  });
  state.on = true;
}

const recording = () => processSingleton("peer-recording", () => ({ on: false }));

/**
 * The address a request comes from, as sign-in limits count it, or null when nothing says.
 * With the socket's address recorded: that address, unless it is one of VIGIL_TRUSTED_PROXIES;
 * then `X-Forwarded-For` is read from the right, past the trusted hops, to the first address
 * no trusted proxy vouches for. Without it (a process where instrumentation did not record
 * peers, such as a serverless host), the header alone: read the same way when proxies are
 * configured, else its last entry, which Next.js writes from the socket unless the client sent
 * the header itself.
 * IPv6 addresses count per /64, which one host can rotate through at will.
 */
export function clientAddress(headers: Headers): string | null {
  const trusted = trustedProxies();
  const forwarded = forwardedChain(headers.get("x-forwarded-for"));
  const peer = recordedPeer(headers);
  let client: Ip | null;
  if (peer) client = isTrusted(peer, trusted) ? (untrustedHop(forwarded, trusted) ?? peer) : peer;
  else if (trusted.length > 0) client = untrustedHop(forwarded, trusted);
  else client = forwarded.at(-1) ?? null;
  return client ? addressKey(client) : null;
}

function recordedPeer(headers: Headers): Ip | null {
  if (!recording().on) return null;
  return parseAddress(headers.get(PEER_HEADER) ?? "");
}

/** The hops of `X-Forwarded-For`, nearest last; an entry that is no address ends what can be read. */
function forwardedChain(header: string | null): Ip[] {
  const hops: Ip[] = [];
  for (const entry of (header ?? "").split(",").reverse()) {
    if (!entry.trim()) continue;
    const hop = parseAddress(entry);
    if (!hop) break;
    hops.unshift(hop);
  }
  return hops;
}

/** The nearest hop no trusted proxy is; if every hop is trusted, the farthest one. */
function untrustedHop(chain: Ip[], trusted: Range[]): Ip | null {
  for (let i = chain.length - 1; i >= 0; i--) if (!isTrusted(chain[i], trusted)) return chain[i];
  return chain[0] ?? null;
}

function isTrusted(address: Ip, trusted: Range[]): boolean {
  return trusted.some((range) => address.kind() === range[0].kind() && address.match(range));
}

/** An address as proxies write it: bare, `a.b.c.d:port` or `[v6]:port`; IPv4-mapped IPv6 as IPv4. */
function parseAddress(value: string): Ip | null {
  const text = value.trim();
  const bare = /^\[([^\]]+)\](?::\d+)?$/.exec(text)?.[1] ?? /^([\d.]+):\d+$/.exec(text)?.[1] ?? text;
  return ipaddr.isValid(bare) ? ipaddr.process(bare) : null;
}

function addressKey(address: Ip): string {
  if (address.kind() === "ipv4") return address.toString();
  const net = (address as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${net.join(":")}::/64`;
}

let parsed: { source: string; ranges: Range[] } | undefined;

/** VIGIL_TRUSTED_PROXIES: comma-separated addresses and CIDR ranges of the proxies in front. */
function trustedProxies(): Range[] {
  const source = config().trustedProxies;
  if (parsed?.source !== source) parsed = { source, ranges: source.split(",").flatMap(toRange) };
  return parsed.ranges;
}

function toRange(entry: string): Range[] {
  const text = entry.trim();
  if (!text) return [];
  // A list that silently dropped an entry would put every client behind that proxy in one bucket.
  if (ipaddr.isValidCIDR(text)) {
    return [ipaddr.parseCIDR(text)];
  }
  if (ipaddr.isValid(text)) {
    const address = ipaddr.process(text);
    return [[address, address.kind() === "ipv4" ? 32 : 128]];
  }
  throw new Error(`VIGIL_TRUSTED_PROXIES: "${text}" is neither an IP address nor a CIDR range.`);
}
