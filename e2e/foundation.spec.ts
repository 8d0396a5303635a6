import { expect, test } from "./fixtures";
import { navLabels, shownTenant, signIn, signInWithForm } from "./support";

const ROLES = [
  { email: "expert@demo.local", role: "member", home: "/experts", nav: ["Experts", "Runs", "Research", "My requests"] },
  {
    email: "reviewer@demo.local",
    role: "reviewer",
    home: "/inbox",
    nav: ["Experts", "Runs", "Research", "My requests", "Inbox"],
  },
  {
    email: "admin@demo.local",
    role: "admin",
    home: "/audit",
    nav: ["Experts", "Runs", "Research", "My requests", "Inbox", "Audit", "Knowledge", "Settings"],
  },
];

for (const { email, role, home, nav } of ROLES) {
  test(`${role} signs in where their work is, sees the right navigation, searches the experts and signs out`, async ({
    page,
  }) => {
    // The form itself, for each role: the one place every role signs in as a person does.
    await signInWithForm(page, email);
    await expect(page).toHaveURL(new RegExp(`${home}$`));
    await expect(page.getByTestId("current-role")).toHaveText(role);
    // A name for one tenant; the demo admin, in two, has a switcher showing the current one.
    await expect.poll(() => shownTenant(page.getByTestId("tenant-name"))).toMatch(/^Demo Pharma\b/);
    expect(await navLabels(page)).toEqual(nav);

    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Experts" }).click();
    const cards = page.getByTestId("expert-card");
    await expect(cards).toHaveCount(6);
    await page.getByLabel("Search experts").fill("safety");
    await expect(cards).toHaveCount(1);
    await expect(cards.first()).toContainText("Pharmacovigilance Expert");
    await page.getByLabel("Search experts").fill("no such thing");
    await expect(page.getByText("No expert matches")).toBeVisible();
    await page.getByLabel("Search experts").fill("");
    await expect(cards).toHaveCount(6);

    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/sign-in/);
    await page.goto("/experts");
    await expect(page).toHaveURL(/\/sign-in\?next=%2Fexperts/);
  });
}

test("the acme expert sees only acme agents", async ({ page }) => {
  await signIn(page, "expert@acme.local");
  await expect(page.getByTestId("tenant-name")).toHaveText("Acme Devices");
  const cards = page.getByTestId("expert-card");
  await expect(cards).toHaveCount(2);
  await expect(page.getByText("FDA Regulatory Specialist")).toHaveCount(0);
  const response = await page.request.get("/api/agents");
  const body = await response.json();
  expect(body.items.map((a: { name: string }) => a.name).sort()).toEqual([
    "Device Cybersecurity Advisor",
    "Device Quality Engineer",
  ]);
});

test("a page asked for before sign-in opens after it", async ({ page }) => {
  await page.goto("/inbox");
  await expect(page).toHaveURL(/\/sign-in\?next=%2Finbox/);
  await page.getByLabel("Email").fill("reviewer@demo.local");
  await page.getByLabel("Password").fill("vigil-demo");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/inbox$/);
  await expect(page.getByRole("heading", { name: "Review inbox", exact: true })).toBeVisible();
});

test("a wrong password shows an error and stays on sign-in", async ({ page }) => {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill("expert@demo.local");
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Email or password" })).toContainText(
    "Email or password is not right",
  );
  await expect(page).toHaveURL(/\/sign-in/);
});

test("a member opening an admin page is told it needs the admin role", async ({ page }) => {
  await signIn(page, "expert@demo.local");
  await page.goto("/settings/api-keys");
  await expect(page.getByText("Not available for your role")).toBeVisible();
  const api = await page.request.get("/api/api-keys");
  expect(api.status()).toBe(403);
});

test("an expert card opens a new chat with that agent", async ({ page }) => {
  await signIn(page, "expert@demo.local");
  await page.getByTestId("expert-card").filter({ hasText: "Health Economist" }).click();
  await expect(page).toHaveURL(/\/chat\/new\?agent=health-economist/);
  await expect(page.getByRole("heading", { level: 1, name: /Health Economist/ })).toBeVisible();
  await expect(page.getByLabel("Message Health Economist")).toBeVisible();
});

test("an admin creates an API key that works, then revokes it", async ({ page, playwright }) => {
  await signIn(page, "admin@demo.local");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
  await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "API keys" }).click();
  await expect(page.getByText("No API keys yet")).toBeVisible();
  await page.getByLabel("Name").fill("e2e pipeline");
  await page.getByLabel("Role").selectOption("reviewer");
  await page.getByRole("button", { name: "Create key" }).click();
  const key = ((await page.getByTestId("new-api-key").textContent()) ?? "").trim();
  expect(key).toMatch(/^vk_/);
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.getByRole("button", { name: "Copy key" }).click();
  await expect(page.getByText("Key copied")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);

  const anonymous = await playwright.request.newContext({ baseURL: page.url() });
  const withKey = await anonymous.get("/api/agents", { headers: { authorization: `Bearer ${key}` } });
  expect(withKey.status()).toBe(200);

  await page.getByRole("button", { name: "Revoke" }).click();
  await page.getByRole("button", { name: "Revoke key" }).click();
  await expect(page.getByRole("cell", { name: "revoked" })).toBeVisible();
  const afterRevoke = await anonymous.get("/api/agents", { headers: { authorization: `Bearer ${key}` } });
  expect(afterRevoke.status()).toBe(401);
  await anonymous.dispose();
});

test("the theme toggle switches between light and dark", async ({ page }) => {
  await signIn(page, "expert@demo.local");
  const html = page.locator("html");
  const wasDark = (await html.getAttribute("class"))?.includes("dark") ?? false;
  await page.getByRole("button", { name: /Switch to (dark|light) theme/ }).click();
  if (wasDark) await expect(html).not.toHaveClass(/dark/);
  else await expect(html).toHaveClass(/dark/);
});
