import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface StubUser {
  email: string;
  password: string;
  name: string;
  confirmed: boolean;
}

/**
 * A local stand-in for the Supabase Auth endpoints our supabase mode calls: password grant,
 * get user, logout. Tokens are opaque to us, so unknown ones are simply refused.
 */
export async function startSupabaseStub(
  users: StubUser[],
): Promise<{ url: string; calls: string[]; close(): Promise<void> }> {
  const ids = new Map(users.map((u) => [u.email, randomUUID()]));
  const tokens = new Map<string, StubUser>();
  const calls: string[] = [];

  const userJson = (u: StubUser) => ({
    id: ids.get(u.email),
    aud: "authenticated",
    role: "authenticated",
    email: u.email,
    email_confirmed_at: u.confirmed ? "2026-01-01T00:00:00Z" : null,
    app_metadata: { provider: "email" },
    user_metadata: { name: u.name },
    created_at: "2026-01-01T00:00:00Z",
  });

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://stub");
    calls.push(`${req.method} ${url.pathname}`);
    const send = (status: number, body?: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(body === undefined ? "" : JSON.stringify(body));
    };
    if (
      req.method === "POST" &&
      url.pathname === "/auth/v1/token" &&
      url.searchParams.get("grant_type") === "password"
    ) {
      const body = JSON.parse(await readBody(req)) as { email: string; password: string };
      const user = users.find((u) => u.email === body.email && u.password === body.password);
      if (!user) return send(400, { code: 400, error_code: "invalid_credentials", msg: "Invalid login credentials" });
      const accessToken = fakeJwt(ids.get(user.email) ?? "", user.email);
      tokens.set(accessToken, user);
      const expiresAt = Math.floor(Date.now() / 1000) + 3600;
      return send(200, {
        access_token: accessToken,
        token_type: "bearer",
        expires_in: 3600,
        expires_at: expiresAt,
        refresh_token: randomUUID(),
        user: userJson(user),
      });
    }
    if (req.method === "GET" && url.pathname === "/auth/v1/user") {
      const token = (req.headers.authorization ?? "").replace(/^Bearer /, "");
      const user = tokens.get(token);
      if (!user) return send(401, { code: 401, error_code: "bad_jwt", msg: "invalid JWT" });
      return send(200, userJson(user));
    }
    if (req.method === "POST" && url.pathname === "/auth/v1/logout") {
      tokens.delete((req.headers.authorization ?? "").replace(/^Bearer /, ""));
      return send(204);
    }
    send(404, { msg: "not found" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let data = "";
    req.on("data", (c) => {
      data += c;
    });
    req.on("end", () => resolve(data));
  });
}

function fakeJwt(sub: string, email: string): string {
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
  const now = Math.floor(Date.now() / 1000);
  return `${b64({ alg: "HS256", typ: "JWT" })}.${b64({ sub, email, role: "authenticated", aud: "authenticated", iat: now, exp: now + 3600 })}.${randomUUID().replaceAll("-", "")}`;
}
