import { describe, expect, it } from "vitest";
import * as sessionRoute from "@/app/api/session/route";
import { appTargets } from "../support/databases";
import { call, cookieHeader } from "../support/http";
import { seededDatabase } from "../support/seeded";

// The sign-in form posted by a browser that has not run the page's JavaScript (a slow first
// load, a blocked script): a multipart body to /api/session, answered with redirects.

function form(fields: Record<string, string | Blob>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.append(key, value);
  return data;
}

const post = (fields: Record<string, string | Blob>) =>
  call(sessionRoute.POST, {
    method: "POST",
    path: "/api/session",
    rawBody: form(fields),
    headers: { origin: "http://localhost" },
  });

for (const target of appTargets()) {
  describe(`the sign-in form without JavaScript on ${target.name}`, () => {
    seededDatabase(target, { knowledge: false });

    it("signs in and sends the person to the page they asked for, with a session that works", async () => {
      const res = await post({ email: "expert@demo.local", password: "vigil-demo", returnTo: "/inbox?x=1" });
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe("/inbox?x=1");
      expect(res.headers.getSetCookie().length).toBeGreaterThan(0);
      const session = await call(sessionRoute.GET, { path: "/api/session", headers: { cookie: cookieHeader(res) } });
      expect(session.status).toBe(200);
      expect(session.body).toMatchObject({ status: "success", session: { email: "expert@demo.local" } });
    });

    it("sends a wrong password back to the form with the error's code and no session", async () => {
      const res = await post({ email: "expert@demo.local", password: "wrong", returnTo: "/runs" });
      expect(res.status).toBe(303);
      const back = new URL(res.headers.get("location") as string, "http://localhost");
      expect(back.pathname).toBe("/sign-in");
      expect(back.searchParams.get("error")).toBe("INVALID_CREDENTIALS");
      expect(back.searchParams.get("next")).toBe("/runs");
      // The password is in no address.
      expect(res.headers.get("location")).not.toContain("wrong");
      expect(res.headers.getSetCookie()).toEqual([]);
    });

    it("never returns to another site, and refuses a file where text belongs", async () => {
      const away = await post({ email: "expert@demo.local", password: "vigil-demo", returnTo: "//evil.example/x" });
      expect(away.status).toBe(303);
      expect(away.headers.get("location")).toBe("/");

      const file = await post({ email: "expert@demo.local", password: new Blob(["vigil-demo"]) });
      expect(file.status).toBe(303);
      expect(new URL(file.headers.get("location") as string, "http://localhost").searchParams.get("error")).toBe(
        "VALIDATION_FAILED",
      );
      expect(file.headers.getSetCookie()).toEqual([]);
    });

    it("is refused when another site posts it (the same CSRF rule as JSON)", async () => {
      const res = await call(sessionRoute.POST, {
        method: "POST",
        path: "/api/session",
        rawBody: form({ email: "expert@demo.local", password: "vigil-demo" }),
        headers: { origin: "https://evil.example" },
      });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ status: "error", code: "CSRF_REJECTED" });
      expect(res.headers.getSetCookie()).toEqual([]);
    });
  });
}
