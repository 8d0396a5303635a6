import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, type Page, test } from "./fixtures";
import { PASSWORD, signIn, signInWithForm } from "./support";

/** Answers every request to the foreign site (so nothing leaves the machine) and counts them. */
async function foreignSite(page: Page, body = "<p>elsewhere</p>"): Promise<string[]> {
  const hits: string[] = [];
  await page.context().route(/^https?:\/\/evil\.example\//, (route) => {
    hits.push(route.request().url());
    return route.fulfill({ status: 200, contentType: "text/html", body });
  });
  return hits;
}

/** CSP violations the page reports, collected from the first script on. */
async function recordViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __violations: string[] }).__violations = seen;
    document.addEventListener("securitypolicyviolation", (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const logged: string[] = [];
  page.on("console", (m) => {
    if (m.text().includes("Content Security Policy")) logged.push(m.text());
  });
  return async () => [
    ...logged,
    ...(await page.evaluate(() => (window as unknown as { __violations?: string[] }).__violations ?? [])),
  ];
}

test("pages carry a nonce CSP and still render and hydrate under it", async ({ page }) => {
  // Six pages and a sign-in: on a loaded two-core machine that passed a minute.
  test.setTimeout(120_000);
  const violations = await recordViolations(page);
  const response = await page.goto("/sign-in");
  const headers = response?.headers() ?? {};
  const csp = headers["content-security-policy"] ?? "";
  const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
  expect(nonce).toBeTruthy();
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toContain("'unsafe-inline' 'strict-dynamic'");
  expect(headers).toMatchObject({
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
    "x-frame-options": "DENY",
  });
  expect(headers["permissions-policy"]).toContain("camera=()");
  // Every script Next.js rendered carries this response's nonce.
  const scriptNonces = await page.evaluate(() => [...document.scripts].map((s) => s.nonce));
  expect(scriptNonces.length).toBeGreaterThan(0);
  expect(new Set(scriptNonces)).toEqual(new Set([nonce]));

  // Through the form: signing in is one of the scripts that must run under the nonce.
  await signInWithForm(page, "admin@demo.local");
  await expect(page.getByTestId("current-role")).toHaveText("admin");
  for (const [path, lands] of [
    ["/experts", "/experts"],
    ["/runs", "/runs"],
    ["/knowledge", "/knowledge"],
    ["/settings", "/settings/api-keys"],
  ]) {
    await page.getByRole("navigation", { name: "Main" }).locator(`a[href="${path}"]`).click();
    await expect(page).toHaveURL(new RegExp(`${lands}$`));
  }
  // Only a hydrated page filters as one types.
  await page.goto("/experts");
  await expect(page.getByTestId("expert-card")).toHaveCount(6);
  await page.getByLabel("Search experts").fill("safety");
  await expect(page.getByTestId("expert-card")).toHaveCount(1);
  expect(await violations()).toEqual([]);
});

test("another site cannot frame Vigil", async ({ page, baseURL }) => {
  // The other site runs on this machine (Chromium keeps public sites from framing loopback
  // addresses at all, which would hide what Vigil itself does), under another host name.
  const framer = createServer((req, res) => {
    res.setHeader("content-type", "text/html");
    // A frame of the framer's own, which nothing forbids: proof that a framed page would show.
    if (req.url === "/own") return res.end(`<form aria-label="Sign in"></form>`);
    res.end(`<iframe src="${baseURL}/sign-in" width="400" height="300"></iframe>
             <iframe src="${baseURL}/inbox" width="400" height="300"></iframe>
             <iframe src="/own" width="400" height="300"></iframe>`);
  });
  await new Promise<void>((resolve) => framer.listen(0, "127.0.0.1", resolve));
  const framed: string[] = [];
  page.on("response", (r) => {
    if (r.url().startsWith(baseURL ?? "") && r.request().resourceType() === "document") framed.push(r.url());
  });
  try {
    await page.goto(`http://localhost:${(framer.address() as AddressInfo).port}/`);
    await expect.poll(() => framed.length).toBeGreaterThanOrEqual(2);
    await page.waitForLoadState("load");
    const shown: number[] = [];
    for (const frame of page.frames().filter((f) => f !== page.mainFrame())) {
      shown.push(await frame.locator("form[aria-label='Sign in'], nav").count());
    }
    expect(shown.sort()).toEqual([0, 0, 1]);
  } finally {
    framer.close();
  }
});

test("sign-in sends people only to a page of this site", async ({ page, baseURL }) => {
  const hits = await foreignSite(page);
  for (const next of ["/%5Cevil.example/y", "/%09/evil.example", "/.//evil.example", "//evil.example"]) {
    await page.context().clearCookies();
    await page.goto(`/sign-in?next=${next}`);
    await page.getByLabel("Email").fill("reviewer@demo.local");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(`${baseURL}/inbox`);
  }
  expect(hits).toEqual([]);

  await page.context().clearCookies();
  await page.goto("/sign-in?next=%2Fruns%3Fview%3Dmine");
  await page.getByLabel("Email").fill("reviewer@demo.local");
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(`${baseURL}/runs?view=mine`);
});

test("the sign-in form posts its password in the body, and signs in with JavaScript off", async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const addresses: string[] = [];
  page.on("request", (r) => addresses.push(r.url()));
  try {
    await page.goto("/sign-in?next=%2Fruns");
    await expect(page.getByRole("form", { name: "Sign in" })).toHaveAttribute("method", "post");
    await page.getByLabel("Email").fill("reviewer@demo.local");
    await page.getByLabel("Password").fill("not-the-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/sign-in\?error=INVALID_CREDENTIALS/);
    await expect(page.getByRole("alert")).toHaveText("Email or password is not right.");

    await page.getByLabel("Email").fill("reviewer@demo.local");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(`${baseURL}/runs`);
    expect(addresses.filter((a) => a.includes(PASSWORD) || a.includes("not-the-password"))).toEqual([]);
  } finally {
    await context.close();
  }
});

test("a page cannot load an image from a host nobody allowlisted", async ({ page }) => {
  const hits = await foreignSite(page);
  const violations = await recordViolations(page);
  await signIn(page, "expert@demo.local");
  await page.evaluate(() => {
    const img = document.createElement("img");
    img.src = "http://evil.example/p.png?c=1";
    document.body.append(img);
  });
  await expect.poll(violations).toContainEqual(expect.stringContaining("img-src http://evil.example/p.png"));
  expect(hits).toEqual([]);
});

test("API responses and the sign-in redirect carry the headers too", async ({ request }) => {
  const health = await request.get("/api/health");
  expect(health.headers()).toMatchObject({
    "x-content-type-options": "nosniff",
    "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
  });
  const redirect = await request.get("/inbox", { maxRedirects: 0 });
  expect(redirect.status()).toBe(307);
  expect(redirect.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(redirect.headers()["x-content-type-options"]).toBe("nosniff");
});

test("an API path that does not percent-decode is a 400 in the API's shape, and HTTPS gets HSTS", async ({
  request,
}) => {
  // Next.js decodes route parameters itself, before any handler, and failed here with a plain-text 500.
  for (const path of ["/api/hitl/cases/%E0%A4%A", "/api/runs/%ED%A0%80", "/api/health%"]) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(400);
    expect(await res.json()).toMatchObject({
      status: "error",
      code: "VALIDATION_FAILED",
      details: [{ path: "path", message: expect.stringContaining("percent-encoding") }],
    });
  }
  expect((await request.get("/api/health")).headers()["strict-transport-security"]).toBeUndefined();
  const behindTls = await request.get("/api/health", { headers: { "x-forwarded-proto": "https" } });
  expect(behindTls.headers()["strict-transport-security"]).toBe("max-age=31536000");
});
