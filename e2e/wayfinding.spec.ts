import { expect, type Locator, test } from "./fixtures";
import { navLabels, signIn } from "./support";

test("a mistyped address shows a 404 inside the app, with the navigation still there", async ({ page }) => {
  await signIn(page, "expert@demo.local");
  const response = await page.goto("/no-such-page/at-all");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
  expect(await navLabels(page)).toEqual(["Experts", "Runs", "Research", "My requests"]);
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
  await page.getByRole("link", { name: "start from your home page" }).click();
  await expect(page).toHaveURL(/\/experts$/);
});

test("/settings opens its first section; the nav lists only pages that exist", async ({ page }) => {
  await signIn(page, "admin@demo.local");
  await page.goto("/settings");
  await expect(page).toHaveURL(/\/settings\/api-keys$/);
  const nav = page.getByRole("navigation", { name: "Main" });
  for (const href of await nav.getByRole("link").evaluateAll((links) => links.map((a) => a.getAttribute("href")))) {
    const response = await page.request.get(href as string);
    expect(response.status(), `${href} from the nav`).toBe(200);
  }
});

test("every page of an admin's header is in view and clickable at 1366 px, the settings pages one click further", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await signIn(page, "admin@demo.local");
  const inView = async (link: Locator) => {
    await expect(link).toBeInViewport({ ratio: 1 });
    // Not clipped by the row's own scroll area: the link itself is what its centre shows.
    expect(
      await link.evaluate((el) => {
        const box = el.getBoundingClientRect();
        const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
        return hit !== null && (hit === el || el.contains(hit));
      }),
    ).toBe(true);
  };
  const main = page.getByRole("navigation", { name: "Main" });
  for (const link of await main.getByRole("link").all()) await inView(link);
  await main.getByRole("link", { name: "Settings" }).click();
  const settings = page.getByRole("navigation", { name: "Settings" });
  for (const [label, path] of [
    ["Agent settings", "/settings/agents"],
    ["Data sources", "/settings/data-sources"],
    ["API keys", "/settings/api-keys"],
  ] as const) {
    const link = settings.getByRole("link", { name: label });
    await inView(link);
    await link.click();
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await expect(link).toHaveAttribute("aria-current", "page");
    await expect(main.getByRole("link", { name: "Settings" })).toHaveAttribute("aria-current", "page");
  }
});

test("the site has an icon, and an unknown API path answers JSON in the API's shape", async ({ page }) => {
  await page.goto("/sign-in");
  const icon = page.locator('link[rel="icon"]').first();
  const href = await icon.getAttribute("href");
  expect(href).toBeTruthy();
  const response = await page.request.get(href as string);
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toContain("image/svg+xml");

  const api = await page.request.get("/api/no-such-route?x=1");
  expect(api.status()).toBe(404);
  expect(api.headers()["content-type"]).toContain("application/json");
  expect(await api.json()).toEqual({ status: "not_found", message: "API route GET /api/no-such-route not found" });
});

test("experts show drawn icons, not emoji a machine may lack a font for", async ({ page }) => {
  await signIn(page, "expert@demo.local");
  const cards = page.getByTestId("expert-card");
  await expect(cards).toHaveCount(6);
  for (const card of await cards.all()) {
    const icon = card.getByTestId("agent-icon");
    await expect(icon.locator("svg")).toBeVisible();
    expect(await icon.textContent()).toBe("");
  }
  await cards.first().click();
  await expect(page.getByTestId("agent-icon").first().locator("svg")).toBeVisible();
});
