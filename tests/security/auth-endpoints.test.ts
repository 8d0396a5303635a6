import { beforeAll, describe, expect, it } from "vitest";
import * as authRoute from "@/app/api/auth/[...all]/route";
import * as sessionRoute from "@/app/api/session/route";
import { appTargets } from "../support/databases";
import { call, cookieHeader } from "../support/http";
import { seededDatabase } from "../support/seeded";

const HANDLERS = {
  GET: authRoute.GET,
  POST: authRoute.POST,
  PUT: authRoute.PUT,
  PATCH: authRoute.PATCH,
  DELETE: authRoute.DELETE,
} as const;

// A sample of better-auth's endpoints; the product reaches none of them over HTTP.
const ENDPOINTS: [keyof typeof HANDLERS, string, unknown?][] = [
  ["GET", "list-sessions"],
  ["GET", "get-session"],
  ["GET", "ok"],
  ["GET", "error"],
  ["POST", "sign-in/email", { email: "admin@demo.local", password: "vigil-demo" }],
  ["POST", "sign-up/email", { email: "new@demo.local", password: "vigil-demo-new", name: "New" }],
  ["POST", "sign-out", {}],
  ["POST", "revoke-sessions", {}],
  ["POST", "revoke-other-sessions", {}],
  ["POST", "update-user", { name: "Renamed" }],
  ["POST", "change-password", { currentPassword: "vigil-demo", newPassword: "changed-password" }],
  ["POST", "request-password-reset", { email: "admin@demo.local" }],
  ["GET", "list-accounts"],
  ["POST", "delete-user", {}],
  ["PATCH", "anything"],
];

for (const target of appTargets()) {
  describe(`better-auth's endpoints on ${target.name}`, () => {
    seededDatabase(target, { knowledge: false });
    let cookie = "";
    let token = "";

    beforeAll(async () => {
      const res = await call(sessionRoute.POST, {
        method: "POST",
        body: { email: "admin@demo.local", password: "vigil-demo" },
      });
      expect(res.status).toBe(200);
      cookie = cookieHeader(res);
      token = decodeURIComponent(/session_token=([^;.]+)/.exec(cookie)?.[1] ?? "");
      expect(token.length).toBeGreaterThan(10);
    });

    it.each(ENDPOINTS)("answers 404 for %s /api/auth/%s, and gives away no session", async (method, endpoint, body) => {
      const res = await call(HANDLERS[method], {
        method,
        path: `/api/auth/${endpoint}`,
        body,
        headers: { cookie, origin: "http://localhost" },
        params: { all: endpoint },
      });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ status: "not_found", message: expect.any(String) });
      expect(JSON.stringify(res.body)).not.toContain(token);
      expect(res.headers.getSetCookie()).toEqual([]);
    });

    it("leaves the session it did not hand out working", async () => {
      const res = await call(sessionRoute.GET, { path: "/api/session", headers: { cookie } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ session: { email: "admin@demo.local", role: "admin" } });
    });
  });
}
