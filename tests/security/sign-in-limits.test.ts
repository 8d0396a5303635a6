import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as sessionRoute from "@/app/api/session/route";
import { recordPeerAddresses } from "@/lib/auth";
import { type Database, openDatabase, rowsOf, setActiveDatabase } from "@/lib/db";
import { seedDemo } from "@/lib/demo";
import { appTargets, templateImage } from "../support/databases";
import { restoreEnv } from "../support/env";
import { type Call, call } from "../support/http";
import { seededDatabase } from "../support/seeded";
import { startSupabaseStub } from "../support/supabase-stub";

const PASSWORD = "vigil-demo";
const PEER_HEADER = "x-vigil-peer-address";

// What the server process does at start (instrumentation): the socket's address is written into
// PEER_HEADER on every request. Requests below set that header themselves, as the server would.
beforeAll(() => recordPeerAddresses());

interface From {
  peer?: string;
  forwardedFor?: string;
}

function signIn(email: string, password: string, from: From = {}): Promise<Call> {
  return call(sessionRoute.POST, {
    method: "POST",
    path: "/api/session",
    body: { email, password },
    headers: { [PEER_HEADER]: from.peer, "x-forwarded-for": from.forwardedFor },
  });
}

async function statuses(count: number, attempt: (i: number) => Promise<Call>): Promise<number[]> {
  const seen: number[] = [];
  for (let i = 0; i < count; i++) seen.push((await attempt(i)).status);
  return seen;
}

function expectRefused(res: Call): number {
  expect(res.status, JSON.stringify(res.body)).toBe(429);
  expect(res.body).toMatchObject({
    status: "error",
    code: "TOO_MANY_SIGN_IN_ATTEMPTS",
    message: expect.stringMatching(/try again in/i),
  });
  const retryAfter = Number(res.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(15 * 60);
  expect(res.body.details).toEqual({ retry_after: retryAfter });
  expect(res.headers.getSetCookie()).toEqual([]);
  return retryAfter;
}

for (const target of appTargets()) {
  describe(`sign-in limits on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });
    const trusted = process.env.VIGIL_TRUSTED_PROXIES;

    afterEach(() => {
      if (trusted === undefined) delete process.env.VIGIL_TRUSTED_PROXIES;
      else process.env.VIGIL_TRUSTED_PROXIES = trusted;
    });

    /** Ends every lock now, as time passing would. */
    async function waitOutLocks() {
      await suite.database.db.execute(
        sql`update sign_in_limits set locked_until = now() - interval '1 second' where locked_until > now()`,
      );
    }

    it("refuses the right password with 429 and Retry-After after 100 wrong ones, and backs off", async () => {
      const from = { peer: "192.0.2.10" };
      const seen = await statuses(100, () => signIn("expert@demo.local", "wrong-password", from));
      expect(seen.slice(0, 6)).toEqual([401, 401, 401, 401, 401, 401]);
      expect(new Set(seen.slice(6))).toEqual(new Set([429]));

      const first = expectRefused(await signIn("expert@demo.local", PASSWORD, from));
      expect(first).toBeLessThanOrEqual(30);

      // Once the wait is over, one more guess is heard; its failure locks the account twice as long.
      await waitOutLocks();
      expect((await signIn("expert@demo.local", "wrong-password", from)).status).toBe(401);
      const second = expectRefused(await signIn("expert@demo.local", PASSWORD, from));
      expect(second).toBeGreaterThan(30);
      expect(second).toBeLessThanOrEqual(60);

      // The limits live in the database, keyed by hashes: no email or address in the clear.
      const rows = rowsOf<{ subject: string }>(
        await suite.database.db.execute(sql`select subject from sign_in_limits`),
      );
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.map((r) => r.subject).join(" ")).not.toMatch(/@|192\.0\.2/);
    });

    it("forgets failures an hour after the last one", async () => {
      const from = { peer: "192.0.2.60" };
      const guess = () => signIn("forgetful@demo.local", "wrong-password", from);
      expect(await statuses(7, guess)).toEqual([401, 401, 401, 401, 401, 401, 429]);
      await suite.database.db.execute(
        sql`update sign_in_limits set last_failure_at = last_failure_at - interval '61 minutes',
              locked_until = locked_until - interval '61 minutes'`,
      );
      expect(await statuses(7, guess)).toEqual([401, 401, 401, 401, 401, 401, 429]);
    });

    it("limits an unknown account exactly as a known one", async () => {
      const known = await statuses(8, () => signIn("reviewer@demo.local", "wrong-password", { peer: "192.0.2.20" }));
      const unknown = await statuses(8, () => signIn("nobody@demo.local", "wrong-password", { peer: "192.0.2.21" }));
      expect(known).toEqual([401, 401, 401, 401, 401, 401, 429, 429]);
      expect(unknown).toEqual(known);
    });

    it("counts guesses sent all at once", async () => {
      const all = await Promise.all(
        Array.from({ length: 30 }, (_, i) => signIn("burst@demo.local", `wrong-${i}`, { peer: "192.0.2.30" })),
      );
      const counted = all.map((r) => r.status).sort();
      expect(counted.filter((s) => s === 401)).toHaveLength(6);
      expect(counted.filter((s) => s === 429)).toHaveLength(24);
    });

    it("keeps counting per address when an untrusted peer rotates X-Forwarded-For", async () => {
      const peer = "198.51.100.7";
      const seen = await statuses(24, (i) =>
        signIn(`spray-${i}@demo.local`, "wrong-password", { peer, forwardedFor: `203.0.113.${i + 1}` }),
      );
      expect(seen.slice(0, 21)).toEqual(Array(21).fill(401));
      expect(seen.slice(21)).toEqual([429, 429, 429]);
      expectRefused(await signIn("admin@acme.local", PASSWORD, { peer, forwardedFor: "203.0.113.200" }));
      // Another address is not held back by that one.
      expect((await signIn("admin@acme.local", PASSWORD, { peer: "198.51.100.8" })).status).toBe(200);
    });

    it("honours X-Forwarded-For from a trusted proxy, read from the right", async () => {
      process.env.VIGIL_TRUSTED_PROXIES = "10.9.0.0/16, 2001:db8::1";
      const proxy = "10.9.0.5";
      const seen = await statuses(22, (i) =>
        signIn(`crowd-${i}@demo.local`, "wrong-password", { peer: proxy, forwardedFor: "203.0.113.50" }),
      );
      expect(seen.at(-1)).toBe(429);
      // A client cannot pass for another by writing an address in front of the one the proxy adds.
      expectRefused(
        await signIn("crowd-x@demo.local", "wrong-password", {
          peer: proxy,
          forwardedFor: "203.0.113.99, 203.0.113.50",
        }),
      );
      // Behind two trusted hops (the far one an IPv6 proxy), the client is still found.
      expectRefused(
        await signIn("crowd-y@demo.local", "wrong-password", {
          peer: proxy,
          forwardedFor: "203.0.113.50, 2001:db8::1",
        }),
      );
      // Another client behind the same proxy has its own count.
      expect(
        (await signIn("crowd-z@demo.local", "wrong-password", { peer: proxy, forwardedFor: "203.0.113.51" })).status,
      ).toBe(401);
      expect((await signIn("admin@demo.local", PASSWORD, { peer: proxy, forwardedFor: "203.0.113.51" })).status).toBe(
        200,
      );
    });

    it("does not count a success, and a success clears the account's failures", async () => {
      const peer = "192.0.2.40";
      const failures = await statuses(19, (i) => signIn(`typo-${i}@demo.local`, "wrong-password", { peer }));
      expect(failures).toEqual(Array(19).fill(401));
      const successes = await statuses(25, () => signIn("admin@demo.local", PASSWORD, { peer }));
      expect(successes).toEqual(Array(25).fill(200));
      // The address's 20th and 21st failures are still heard; the 21st locks it.
      expect(await statuses(3, (i) => signIn(`typo-more-${i}@demo.local`, "wrong-password", { peer }))).toEqual([
        401, 401, 429,
      ]);

      const account = async () => [
        ...(await statuses(4, () => signIn("expert@acme.local", "wrong-password", { peer: "192.0.2.41" }))),
        (await signIn("expert@acme.local", PASSWORD, { peer: "192.0.2.41" })).status,
      ];
      expect([...(await account()), ...(await account()), ...(await account())]).toEqual([
        401, 401, 401, 401, 200, 401, 401, 401, 401, 200, 401, 401, 401, 401, 200,
      ]);
    });

    it("takes the socket's address, whatever the client claims, when served over HTTP", async () => {
      const server = await serve(sessionRoute.POST);
      try {
        const seen = await statuses(23, (i) =>
          post(
            server,
            { email: `socket-${i}@demo.local`, password: "wrong-password" },
            {
              [PEER_HEADER]: `198.18.0.${i + 1}`,
              "x-forwarded-for": `198.18.1.${i + 1}`,
            },
          ),
        );
        expect(seen.slice(0, 21)).toEqual(Array(21).fill(401));
        expect(seen.slice(21)).toEqual([429, 429]);
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    });
  });
}

describe("sign-in limits in supabase mode", () => {
  let database: Database;
  let stub: Awaited<ReturnType<typeof startSupabaseStub>>;
  const saved = { ...process.env };

  beforeAll(async () => {
    stub = await startSupabaseStub([
      { email: "expert@demo.local", password: "s3cret-pass", name: "Erin Expert", confirmed: true },
    ]);
    Object.assign(process.env, { AUTH_MODE: "supabase", SUPABASE_URL: stub.url, SUPABASE_ANON_KEY: "anon-test-key" });
    database = await openDatabase({ dataDir: "memory://", image: await templateImage("migrated") });
    setActiveDatabase(database);
    await seedDemo(database, { force: true, identity: "supabase" });
  });

  afterAll(async () => {
    restoreEnv(saved);
    setActiveDatabase(undefined);
    await database.close();
    await stub.close();
  });

  it("refuses the right password with 429 after repeated wrong ones", async () => {
    const from = { peer: "192.0.2.50" };
    expect((await signIn("expert@demo.local", "s3cret-pass", from)).status).toBe(200);
    const seen = await statuses(8, () => signIn("expert@demo.local", "wrong", from));
    expect(seen).toEqual([401, 401, 401, 401, 401, 401, 429, 429]);
    const calls = stub.calls.filter((c) => c === "POST /auth/v1/token").length;
    expectRefused(await signIn("expert@demo.local", "s3cret-pass", from));
    // A refused attempt never reaches the identity provider.
    expect(stub.calls.filter((c) => c === "POST /auth/v1/token").length).toBe(calls);
  });
});

type Handler = (req: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** A real HTTP server in front of a route handler, passing on the headers Node parsed. */
async function serve(handler: Handler): Promise<Server> {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    const response = await handler(
      new Request(`http://localhost${req.url}`, { method: req.method, headers, body: Buffer.concat(chunks) }),
      { params: Promise.resolve({}) },
    );
    res.writeHead(response.status, { "content-type": "application/json" });
    res.end(await response.text());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

async function post(server: Server, body: unknown, headers: Record<string, string>): Promise<Call> {
  const { port } = server.address() as AddressInfo;
  const res = await fetch(`http://127.0.0.1:${port}/api/session`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : {}, headers: res.headers };
}
