import { expect, type Locator, type Page, test } from "./fixtures";
import { signIn } from "./support";

// The admin's screens on a 390 × 844 phone: every row of the admin tables is a card whose actions
// (Save, Delete, Revoke, Remove…) sit inside the screen — no side-scroll hides them — and can be
// clicked; the audit's tabs scroll sideways with a fading edge and keep the current tab in view.

const PHONE = { width: 390, height: 844 };
test.use({ viewport: PHONE, isMobile: true, hasTouch: true });

/** The page itself does not scroll sideways. */
async function expectPageFits(page: Page, where: string) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(innerWidth, `${where}: layout width`).toBe(PHONE.width);
  expect(scrollWidth, `${where}: page width`).toBeLessThanOrEqual(innerWidth);
}

/**
 * The control lies inside the screen's width with no box around it scrolled or scrollable
 * sideways, once the page is scrolled down (never sideways) to it; then it passes Playwright's
 * actionability checks for a click (visible, stable, enabled, not covered).
 */
async function expectReachable(control: Locator, what: string) {
  await expect(control, what).toBeVisible();
  const placement = await control.evaluate((el) => {
    const top = el.getBoundingClientRect().top + window.scrollY;
    window.scrollTo(0, Math.max(0, top - window.innerHeight / 2));
    const rect = el.getBoundingClientRect();
    const sideways: string[] = [];
    for (let node = el.parentElement; node && node !== document.body; node = node.parentElement) {
      const style = getComputedStyle(node);
      const scrolls = /(auto|scroll)/.test(style.overflowX) && node.scrollWidth > node.clientWidth + 1;
      if (scrolls || node.scrollLeft > 0) sideways.push(`${node.tagName.toLowerCase()}.${node.className}`);
    }
    return { left: rect.left, right: rect.right, width: window.innerWidth, sideways };
  });
  expect(placement.sideways, `${what}: inside a sideways-scrolling box`).toEqual([]);
  expect(placement.left, `${what}: left edge`).toBeGreaterThanOrEqual(0);
  expect(placement.right, `${what}: right edge`).toBeLessThanOrEqual(placement.width);
  await expect(control, what).toBeInViewport();
  await control.click({ trial: true });
}

/** A row of tabs: scrolls sideways when wider than the screen, with a fade where more tabs are. */
async function tabRow(nav: Locator) {
  const scroller = nav.getByTestId("scroll-tabs");
  const sizes = await scroller.evaluate((el) => ({
    overflow: el.scrollWidth - el.clientWidth,
    scrollLeft: el.scrollLeft,
  }));
  const fadeShown = async (edge: "start" | "end") =>
    Number(await nav.getByTestId(`scroll-tabs-more-${edge}`).evaluate((el) => getComputedStyle(el).opacity));
  return { scroller, sizes, fadeShown };
}

test.beforeEach(async ({ page }) => {
  await signIn(page, "admin@demo.local");
});

test("API keys: each key is a card with its Revoke button in reach", async ({ page }) => {
  for (const name of ["phone card one", "phone card two"]) {
    const res = await page.request.post("/api/api-keys", { data: { name, role: "member" } });
    expect(res.status(), await res.text()).toBe(201);
  }
  await page.goto("/settings/api-keys");
  await expect(page.getByRole("button", { name: "Create key" })).toBeVisible();
  const rows = page.getByTestId("api-key-row");
  await expect(rows.filter({ hasText: "phone card two" })).toHaveCount(1);
  await expectPageFits(page, "api keys");
  const count = await rows.count();
  let active = 0;
  for (let i = 0; i < count; i++) {
    const row = rows.nth(i);
    const revoke = row.getByRole("button", { name: "Revoke" });
    if ((await revoke.count()) === 0) continue;
    active += 1;
    await expectReachable(revoke, `Revoke of key ${i + 1}`);
  }
  expect(active).toBeGreaterThanOrEqual(2);

  // The action works from the card: it asks, then the key is revoked.
  const card = rows.filter({ hasText: "phone card one" });
  await card.getByRole("button", { name: "Revoke" }).click();
  await expectReachable(page.getByRole("button", { name: "Revoke key" }), "the confirmation");
  await page.getByRole("button", { name: "Revoke key" }).click();
  await expect(card.getByRole("cell", { name: /revoked/ })).toBeVisible();
  await expectPageFits(page, "api keys after revoking");
});

test("Agent settings: every tool's Save, every principle's Remove and the decider selects are in reach", async ({
  page,
}) => {
  await page.goto("/settings/agents");
  const tools = page.getByRole("table", { name: "Tools" });
  await expect(tools).toBeVisible();
  const rows = tools.locator('[data-testid^="tool-"]');
  const count = await rows.count();
  expect(count).toBeGreaterThan(0);
  for (let i = 0; i < count; i++) {
    const row = rows.nth(i);
    const name = ((await row.getAttribute("data-testid")) ?? "").replace(/^tool-/, "");
    // Save is enabled once something changes: change, check it can be clicked, change back.
    const enabled = row.getByLabel(`${name} enabled`);
    await enabled.click();
    await expectReachable(row.getByRole("button", { name: `Save ${name}` }), `Save ${name}`);
    await expectReachable(row.getByLabel(`Risk of ${name}`), `Risk of ${name}`);
    await enabled.click();
    await expect(row.getByRole("button", { name: `Save ${name}` })).toBeDisabled();
  }

  const principles = page.getByTestId("principle-row");
  const principleCount = await principles.count();
  expect(principleCount).toBeGreaterThan(0);
  for (let i = 0; i < principleCount; i++) {
    await expectReachable(principles.nth(i).getByRole("button", { name: "Remove" }), `Remove principle ${i + 1}`);
    await expectReachable(page.getByLabel(`Severity of principle ${i + 1}`), `Severity of principle ${i + 1}`);
  }
  await expectReachable(page.getByRole("button", { name: "Add principle" }), "Add principle");

  const decider = page.getByRole("form", { name: "Who decides checkpoints" });
  const selects = decider.getByRole("combobox");
  const selectCount = await selects.count();
  expect(selectCount).toBeGreaterThan(0);
  for (let i = 0; i < selectCount; i++) await expectReachable(selects.nth(i), `decider select ${i + 1}`);
  await expectReachable(decider.getByRole("button", { name: "Back to the defaults" }), "Back to the defaults");
  await expectPageFits(page, "agent settings");
});

test("Data sources: each source's Test and Remove are in reach, and the add form fits", async ({ page }) => {
  await page.goto("/settings/data-sources");
  const sources = page.getByRole("list", { name: "Data sources" }).getByRole("listitem");
  await expect(sources.first()).toBeVisible();
  const count = await sources.count();
  for (let i = 0; i < count; i++) {
    const source = sources.nth(i);
    const name = (await source.getAttribute("aria-label")) ?? `source ${i + 1}`;
    await expectReachable(source.getByRole("button", { name: "Test", exact: true }), `Test ${name}`);
    await expectReachable(source.getByRole("button", { name: `Remove ${name}` }), `Remove ${name}`);
  }
  await expectReachable(page.getByRole("button", { name: "Add data source" }), "Add data source");
  await expectPageFits(page, "data sources");
});

test("Knowledge: each loaded document's Delete is in reach", async ({ page }) => {
  await page.goto("/knowledge");
  const rows = page.getByTestId("document-row");
  await expect(rows.first()).toBeVisible();
  const count = await rows.count();
  for (let i = 0; i < count; i++) {
    await expectReachable(rows.nth(i).getByRole("button", { name: /^Delete / }), `Delete of document ${i + 1}`);
  }
  await expectPageFits(page, "knowledge");
});

test("Audit: the tabs scroll sideways with a fading edge and keep the current tab in view", async ({ page }) => {
  await page.goto("/audit");
  const nav = page.getByRole("navigation", { name: "Audit" });
  const first = await tabRow(nav);
  expect(first.sizes.overflow, "the tabs are wider than the phone").toBeGreaterThan(0);
  expect(first.sizes.scrollLeft).toBe(0);
  await expect.poll(() => first.fadeShown("end")).toBe(1);
  await expect.poll(() => first.fadeShown("start")).toBe(0);
  await expectPageFits(page, "audit");

  // The last tab's page: its tab is scrolled into view, and the fade moves to the start.
  await page.goto("/audit/retention");
  const current = nav.getByRole("link", { name: "Retention" });
  await expect(current).toHaveAttribute("aria-current", "page");
  await expect(current).toBeInViewport({ ratio: 1 });
  const last = await tabRow(nav);
  expect(last.sizes.scrollLeft).toBeGreaterThan(0);
  await expect.poll(() => last.fadeShown("start")).toBe(1);
  await expect.poll(() => last.fadeShown("end")).toBe(0);

  // Swiping back shows the first tab again, and the fade follows.
  await last.scroller.evaluate((el) => el.scrollTo({ left: 0 }));
  await expect(nav.getByRole("link", { name: "Overview" })).toBeInViewport({ ratio: 1 });
  await expect.poll(() => last.fadeShown("end")).toBe(1);
  await nav.getByRole("link", { name: "Exports" }).click();
  await expect(page).toHaveURL(/\/audit\/exports$/);
  await expect(nav.getByRole("link", { name: "Exports" })).toBeInViewport({ ratio: 1 });
});

test("Settings tabs: a fade shows exactly when they overflow, and the current tab is in view", async ({ page }) => {
  for (const [path, label] of [
    ["/settings/api-keys", "API keys"],
    ["/settings/data-sources", "Data sources"],
  ] as const) {
    await page.goto(path);
    const nav = page.getByRole("navigation", { name: "Settings" });
    await expect(nav.getByRole("link", { name: label })).toBeInViewport({ ratio: 1 });
    const row = await tabRow(nav);
    const moreAtEnd = row.sizes.overflow - row.sizes.scrollLeft > 1;
    await expect.poll(() => row.fadeShown("end")).toBe(moreAtEnd ? 1 : 0);
    await expect.poll(() => row.fadeShown("start")).toBe(row.sizes.scrollLeft > 1 ? 1 : 0);
    await expectPageFits(page, path);
  }
});

test("Audit lists: alert rules, exports, retention and the list filters keep their actions in reach", async ({
  page,
}) => {
  await page.goto("/audit/alerts");
  const rules = page.getByTestId("alert-rule");
  await expect(rules.first()).toBeVisible();
  const count = await rules.count();
  for (let i = 0; i < count; i++) {
    await expectReachable(rules.nth(i).getByRole("button", { name: "Save" }), `Save of alert rule ${i + 1}`);
  }
  await expectPageFits(page, "alerts");

  await page.goto("/audit/exports");
  await expectReachable(page.getByRole("button", { name: "Export" }), "Export");
  await expectPageFits(page, "exports");

  await page.goto("/audit/retention");
  await expectReachable(page.getByRole("button", { name: "Save policy" }), "Save policy");
  await expectReachable(page.getByRole("button", { name: "Apply now" }), "Apply now");
  await expectPageFits(page, "retention");

  for (const [path, form] of [
    ["/audit", "Filter runs"],
    ["/audit/sessions", "Filter sessions"],
    ["/audit/decisions", "Filter decisions"],
    ["/audit/phi", "Filter PHI accesses"],
  ] as const) {
    await page.goto(path);
    const filters = page.getByRole("form", { name: form });
    await expectReachable(filters.getByRole("button", { name: "Apply" }), `${form}: Apply`);
    await expectReachable(filters.getByRole("button", { name: "Clear" }), `${form}: Clear`);
    await expectPageFits(page, path);
  }
});

test("A From after To in an audit filter is refused in words, before the list is asked", async ({ page }) => {
  await page.goto("/audit/sessions");
  const filters = page.getByRole("form", { name: "Filter sessions" });
  await filters.getByLabel("Active from").fill("2026-03-02");
  await filters.getByLabel("Active until").fill("2026-03-01");
  await filters.getByRole("button", { name: "Apply" }).click();
  await expect(filters.getByRole("alert")).toHaveText(
    "“Active from” is after “Active until”: pick a start on or before the end.",
  );
  await expect(page.getByText("Could not load the sessions")).toHaveCount(0);
  await filters.getByRole("button", { name: "Clear" }).click();
  await expect(filters.getByRole("alert")).toHaveCount(0);
});
