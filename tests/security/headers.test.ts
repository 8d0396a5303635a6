import { NextRequest } from "next/server";
import { afterEach, describe, expect, it } from "vitest";
import nextConfig from "@/next.config";
import { proxy } from "@/proxy";

function page(path: string, headers: Record<string, string> = {}) {
  return proxy(new NextRequest(`http://localhost${path}`, { headers }));
}

function directives(policy: string | null): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of (policy ?? "").split(";")) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) out.set(name, values);
  }
  return out;
}

const SIGNED_IN = { cookie: "better-auth.session_token=abc.def" };

describe("the headers of a page", () => {
  afterEach(() => {
    delete process.env.VIGIL_IMAGE_HOSTS;
  });

  it("sends a nonce-based CSP that forbids framing, on every page and the sign-in page", async () => {
    for (const [path, headers] of [
      ["/sign-in", {}],
      ["/inbox", SIGNED_IN],
      ["/chat/new?agent=x", SIGNED_IN],
    ] as const) {
      const res = await page(path, headers);
      const csp = directives(res.headers.get("content-security-policy"));
      const nonce = csp.get("script-src")?.find((v) => v.startsWith("'nonce-"));
      expect(nonce, path).toMatch(/^'nonce-[A-Za-z0-9+/]{22,}={0,2}'$/);
      // 'unsafe-eval' for the review forms' schema validation (Ajv); scripts still need the nonce.
      expect(csp.get("script-src")).toEqual(["'self'", nonce, "'strict-dynamic'", "'unsafe-eval'"]);
      expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
      expect(csp.get("object-src")).toEqual(["'none'"]);
      expect(csp.get("base-uri")).toEqual(["'none'"]);
      expect(csp.get("default-src")).toEqual(["'self'"]);
      expect(csp.get("img-src")).toEqual(["'self'", "data:", "blob:"]);
      // Next.js reads the nonce from the request's own CSP header; the layout reads x-nonce.
      expect(res.headers.get("x-middleware-request-content-security-policy")).toBe(
        res.headers.get("content-security-policy"),
      );
      expect(`'nonce-${res.headers.get("x-middleware-request-x-nonce")}'`).toBe(nonce);
    }
  });

  it("uses a fresh nonce for every response", async () => {
    const nonces = new Set<string | null>();
    for (let i = 0; i < 20; i++) nonces.add((await page("/sign-in")).headers.get("x-middleware-request-x-nonce"));
    expect(nonces.size).toBe(20);
  });

  it("keeps the CSP on the redirect to sign in", async () => {
    const res = await page("/inbox?state=pending");
    expect(res.status).toBe(307);
    expect(new URL(res.headers.get("location") ?? "").searchParams.get("next")).toBe("/inbox?state=pending");
    expect(directives(res.headers.get("content-security-policy")).get("frame-ancestors")).toEqual(["'none'"]);
  });

  it("lets images come from the hosts an admin allowlisted, and only well-formed ones", async () => {
    process.env.VIGIL_IMAGE_HOSTS =
      "images.example.com, https://cdn.example.org/figures,'unsafe-inline';script-src,https://x.example/a;b," +
      "http://plain.example,https://u:p@x.example/,*.wild.example,https://q.example/?a=1";
    const res = await page("/sign-in");
    const csp = directives(res.headers.get("content-security-policy"));
    expect(csp.get("img-src")).toEqual([
      "'self'",
      "data:",
      "blob:",
      "https://images.example.com/",
      "https://cdn.example.org/figures/",
    ]);
    // A crafted allowlist entry adds nothing to the script sources.
    expect(csp.get("script-src")).toHaveLength(4);
  });
});

describe("the headers of every response", () => {
  it("sets nosniff, a referrer policy, a permissions policy and no framing for every path", async () => {
    const rules = (await nextConfig.headers?.()) ?? [];
    const every = rules.find((r) => r.source === "/:path*");
    const values = Object.fromEntries((every?.headers ?? []).map((h) => [h.key.toLowerCase(), h.value]));
    expect(values).toMatchObject({
      "x-content-type-options": "nosniff",
      "referrer-policy": "same-origin",
      "x-frame-options": "DENY",
      "permissions-policy": expect.stringContaining("camera=()"),
    });
    const api = rules.find((r) => r.source === "/api/:path*");
    expect(api?.headers).toEqual([
      { key: "Content-Security-Policy", value: "default-src 'none'; frame-ancestors 'none'" },
    ]);
  });
});
