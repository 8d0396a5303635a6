import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A recorded answer: the status and JSON body the stub replays for a path. */
export interface Recording {
  status?: number;
  body: unknown;
  /** Hold the answer this long (to test timeouts). */
  delayMs?: number;
}

export interface FallbackStub {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Every request received: path and query. */
  requests: { path: string; query: URLSearchParams; headers: IncomingMessage["headers"] }[];
  close(): Promise<void>;
}

/** Reads a recorded JSON response kept next to a test. */
export function recording(file: string | URL): Recording {
  return { body: JSON.parse(readFileSync(file, "utf8")) };
}

/**
 * A local HTTP server on a free port that replays recorded JSON responses by path (query
 * strings are recorded, not matched); unknown paths get 404.
 */
export async function startFallbackStub(routes: Record<string, Recording>): Promise<FallbackStub> {
  const requests: FallbackStub["requests"] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://stub");
    requests.push({ path: url.pathname, query: url.searchParams, headers: req.headers });
    const route = routes[url.pathname];
    const reply = () => {
      if (!route) {
        res.writeHead(404, { "content-type": "application/json" }).end('{"error":"not recorded"}');
        return;
      }
      res.writeHead(route.status ?? 200, { "content-type": "application/json" }).end(JSON.stringify(route.body));
    };
    if (route?.delayMs) setTimeout(reply, route.delayMs);
    else reply();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
