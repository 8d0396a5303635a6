import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as agentsRoute from "@/app/api/agents/route";
import * as authRoute from "@/app/api/auth/[...all]/route";
import * as sessionRoute from "@/app/api/session/route";
import { type Database, openDatabase, schema, setActiveDatabase } from "@/lib/db";
import { seedDemo } from "@/lib/demo";
import { templateImage } from "../support/databases";
import { restoreEnv } from "../support/env";
import { call, cookieHeader } from "../support/http";
import { startSupabaseStub } from "../support/supabase-stub";

describe("AUTH_MODE=supabase against a local stub of Supabase Auth", () => {
  let database: Database;
  let stub: Awaited<ReturnType<typeof startSupabaseStub>>;
  const saved = { ...process.env };

  beforeAll(async () => {
    stub = await startSupabaseStub([
      { email: "expert@demo.local", password: "s3cret-pass", name: "Erin Expert", confirmed: true },
      { email: "admin@acme.local", password: "s3cret-pass", name: "Ada", confirmed: false },
      { email: "stranger@else.where", password: "s3cret-pass", name: "Stranger", confirmed: true },
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

  async function signIn(email: string, password = "s3cret-pass") {
    return call(sessionRoute.POST, { method: "POST", body: { email, password } });
  }

  it("signs in through Supabase, claims the emailed invitation and acts in that tenant", async () => {
    const res = await signIn("expert@demo.local");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const cookie = cookieHeader(res);
    expect(cookie).toMatch(/sb-[^=]+-auth-token/);
    expect(stub.calls).toContain("POST /auth/v1/token");

    const agents = await call(agentsRoute.GET, { headers: { cookie } });
    expect(agents.status).toBe(200);
    expect(agents.body.count).toBe(6);
    expect(stub.calls).toContain("GET /auth/v1/user");

    const me = await call(sessionRoute.GET, { headers: { cookie } });
    expect(me.body.session).toMatchObject({ email: "expert@demo.local", tenantSlug: "demo", role: "member" });
    const memberships = await database.db.select().from(schema.memberships);
    const claimed = memberships.find((m) => m.email === "expert@demo.local");
    expect(claimed?.userId).not.toMatch(/^invite:/);
  });

  it("refuses a wrong password with 401", async () => {
    const res = await signIn("expert@demo.local", "wrong");
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("INVALID_CREDENTIALS");
  });

  it("does not claim an invitation for an unconfirmed email, and refuses a person without tenant", async () => {
    for (const email of ["admin@acme.local", "stranger@else.where"]) {
      const res = await signIn(email);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe("NO_MEMBERSHIP");
    }
  });

  it("answers 401 for a forged session cookie", async () => {
    const forged = Buffer.from(
      JSON.stringify({
        access_token: "forged",
        refresh_token: "r",
        expires_at: Math.floor(Date.now() / 1000) + 3600,
        token_type: "bearer",
        user: { id: "x" },
      }),
    ).toString("base64url");
    const host = new URL(stub.url).hostname.split(".")[0];
    const res = await call(agentsRoute.GET, { headers: { cookie: `sb-${host}-auth-token=base64-${forged}` } });
    expect(res.status).toBe(401);
  });

  it("signs out through Supabase", async () => {
    const cookie = cookieHeader(await signIn("expert@demo.local"));
    const out = await call(sessionRoute.DELETE, { method: "DELETE", headers: { cookie } });
    expect(out.status).toBe(200);
    expect(stub.calls).toContain("POST /auth/v1/logout");
    const after = await call(agentsRoute.GET, { headers: { cookie } });
    expect(after.status).toBe(401);
  });

  it("does not mount the local auth endpoints", async () => {
    const res = await call(authRoute.POST, { method: "POST", path: "/api/auth/sign-in/email", body: {} });
    expect(res.status).toBe(404);
  });
});
