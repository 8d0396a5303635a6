import { NextRequest } from "next/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import * as healthRoute from "@/app/api/health/route";
import * as sessionRoute from "@/app/api/session/route";
import * as tenantRoute from "@/app/api/session/tenant/route";
import { proxy } from "@/proxy";
import { appTargets } from "../support/databases";
import { call, cookieHeader } from "../support/http";
import { seededDatabase } from "../support/seeded";

// What a TLS-terminating proxy in front of the app adds to every request it forwards.
const BEHIND_HTTPS = { "x-forwarded-proto": "https" };
const SIGN_IN = { email: "expert@demo.local", password: "vigil-demo" };

const isSecure = (line: string) => /;\s*secure\s*(;|$)/i.test(line);

for (const target of appTargets()) {
  describe(`cookies and HSTS over HTTPS on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });

    afterEach(() => {
      vi.unstubAllEnvs();
    });

    it("marks every cookie of sign-in, tenant switch and sign-out Secure behind an HTTPS proxy, with HSTS", async () => {
      const signIn = await call(sessionRoute.POST, { method: "POST", body: SIGN_IN, headers: BEHIND_HTTPS });
      expect(signIn.status).toBe(200);
      expect(signIn.headers.getSetCookie().length).toBeGreaterThan(0);
      expect(signIn.headers.getSetCookie().filter((c) => !isSecure(c))).toEqual([]);
      expect(signIn.headers.get("strict-transport-security")).toBe("max-age=31536000");

      const cookie = cookieHeader(signIn);
      const switched = await call(tenantRoute.POST, {
        method: "POST",
        body: { tenantId: suite.tenants.demo },
        headers: { ...BEHIND_HTTPS, cookie },
      });
      expect(switched.status, JSON.stringify(switched.body)).toBe(200);
      const tenantCookie = switched.headers.getSetCookie();
      expect(tenantCookie).toEqual([expect.stringMatching(/^vigil_tenant=/)]);
      expect(tenantCookie.filter((c) => !isSecure(c))).toEqual([]);

      const signOut = await call(sessionRoute.DELETE, { method: "DELETE", headers: { ...BEHIND_HTTPS, cookie } });
      expect(signOut.status).toBe(200);
      expect(signOut.headers.getSetCookie().filter((c) => !isSecure(c))).toEqual([]);
    });

    it("marks cookies Secure when TLS ends at the app itself or the public URL is https", async () => {
      const direct = await call(sessionRoute.POST, {
        method: "POST",
        body: SIGN_IN,
        headers: { forwarded: "for=1.2.3.4;proto=https" },
      });
      expect(direct.headers.getSetCookie().filter((c) => !isSecure(c))).toEqual([]);
      vi.stubEnv("BETTER_AUTH_URL", "https://vigil.example.com");
      const health = await call(healthRoute.GET, { path: "/api/health" });
      expect(health.headers.get("strict-transport-security")).toBe("max-age=31536000");
    });

    it("leaves plain http alone: no HSTS, and cookies a localhost browser sends back", async () => {
      const signIn = await call(sessionRoute.POST, { method: "POST", body: SIGN_IN });
      expect(signIn.status).toBe(200);
      expect(signIn.headers.get("strict-transport-security")).toBeNull();
      const cookie = cookieHeader(signIn);
      const switched = await call(tenantRoute.POST, {
        method: "POST",
        body: { tenantId: suite.tenants.demo },
        headers: { cookie },
      });
      expect(switched.headers.getSetCookie().filter(isSecure)).toEqual([]);
      expect(switched.headers.get("strict-transport-security")).toBeNull();
    });
  });
}

describe("pages over HTTPS", () => {
  it("send HSTS behind an HTTPS proxy, on the sign-in page and on the redirect to it", async () => {
    for (const path of ["/sign-in", "/inbox"]) {
      const res = await proxy(new NextRequest(`http://localhost${path}`, { headers: BEHIND_HTTPS }));
      expect(res.headers.get("strict-transport-security"), path).toBe("max-age=31536000");
    }
  });

  it("send no HSTS over plain http", async () => {
    const res = await proxy(new NextRequest("http://localhost/sign-in"));
    expect(res.headers.get("strict-transport-security")).toBeNull();
  });
});
