import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDataSource, testDataSource } from "@/lib/datasources";
import { testTargets } from "../support/databases";
import { seededDatabase } from "../support/seeded";

// A source whose host and port answer in another protocol (any HTTP server, the app's own port)
// or not at all: Test must end with an error, quickly, and leave nothing reconnecting behind it.

type Behaviour = "http" | "garbage" | "silent";

interface Sink {
  port: number;
  connections: () => number;
  close: () => Promise<void>;
}

/** A local TCP server that counts connections and answers like an HTTP server, with noise, or never. */
async function sink(behaviour: Behaviour): Promise<Sink> {
  let count = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    count++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    if (behaviour === "garbage") socket.end(Buffer.from("\x00\xffNOT A DATABASE\r\n".repeat(20), "latin1"));
    if (behaviour === "http") {
      socket.once("data", () =>
        socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"),
      );
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    connections: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("a data-source Test against something that is not the database", () => {
  const suite = seededDatabase(testTargets()[0], { knowledge: false });
  const sinks: Sink[] = [];
  const scope = () => ({ tenantId: suite.tenants.demo });
  let allowance: string | undefined;

  beforeAll(() => {
    allowance = process.env.VIGIL_DATASOURCE_ALLOW_HOSTS;
    // The sinks listen on loopback: the operator allows it here, as the test environment does.
    process.env.VIGIL_DATASOURCE_ALLOW_HOSTS = "127.0.0.1";
  });
  afterAll(async () => {
    process.env.VIGIL_DATASOURCE_ALLOW_HOSTS = allowance;
    await Promise.all(sinks.map((s) => s.close()));
  });

  const cases: [string, Behaviour, "postgres" | "mysql", string][] = [
    ["PostgreSQL", "http", "postgres", "postgres://vigil:secret@127.0.0.1:PORT/app"],
    ["PostgreSQL", "garbage", "postgres", "postgres://vigil:secret@127.0.0.1:PORT/app"],
    ["PostgreSQL", "silent", "postgres", "postgres://vigil:secret@127.0.0.1:PORT/app"],
    ["MySQL", "http", "mysql", "mysql://vigil:secret@127.0.0.1:PORT/app"],
    ["MySQL", "garbage", "mysql", "mysql://vigil:secret@127.0.0.1:PORT/app"],
    ["MySQL", "silent", "mysql", "mysql://vigil:secret@127.0.0.1:PORT/app"],
  ];

  it.each(cases)(
    "%s source on a port that answers %s: an error in < 10 s, < 10 connections, then none",
    async (_, behaviour, kind, template) => {
      const target = await sink(behaviour);
      sinks.push(target);
      const source = await createDataSource(
        scope(),
        {
          name: `${kind} ${behaviour}`,
          kind,
          connectionString: template.replace("PORT", String(target.port)),
          allowedSchemas: ["app"],
          rowLimit: 10,
          statementTimeoutMs: 1000,
        },
        "test",
      );
      const started = Date.now();
      const result = await testDataSource(scope(), source.id);
      const elapsed = Date.now() - started;
      expect(result.reachable).toBe(false);
      expect(result.error).toBeTruthy();
      expect(elapsed).toBeLessThan(10_000);
      const seen = target.connections();
      expect(seen).toBeGreaterThanOrEqual(1);
      expect(seen).toBeLessThan(10);
      // Nothing keeps reconnecting after the call returned.
      await sleep(2000);
      expect(target.connections()).toBe(seen);
    },
    20_000,
  );
});
