import { expect, type Page, test } from "./fixtures";
import { signIn } from "./support";

// Retention in the browser: an admin edits the policy (a bad schedule is refused with the
// server's reason), previews what applying it would remove, applies it and finds the run in the
// history, by keyboard and on a phone. A member gets the 403 page and 403 from the API.

async function expectNoHorizontalOverflow(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

test("an admin edits the retention policy, previews it as a dry run and applies it", async ({ page, browser }) => {
  await signIn(page, "admin@demo.local");
  await page.getByRole("navigation", { name: "Audit" }).getByRole("link", { name: "Retention" }).click();
  await expect(page).toHaveURL(/\/audit\/retention$/);
  await expect(page.getByRole("heading", { level: 1, name: "Retention" })).toBeVisible();
  await expect(page.getByText("No policy saved yet: the defaults apply.")).toBeVisible();

  const policy = page.getByRole("form", { name: "Policy" });
  const checkpoints = policy.getByLabel("Run checkpoints", { exact: true });
  await expect(checkpoints).toHaveValue("30");
  await expect(policy.getByLabel("Execution trace")).toHaveValue("2190");

  // A schedule the server cannot read is refused, with its reason, and nothing is saved.
  await checkpoints.fill("45");
  await policy.getByLabel("Schedule (cron, UTC)").fill("at two every night");
  await policy.getByRole("button", { name: "Save policy" }).click();
  await expect(policy.getByRole("alert")).toContainText("Schedule (cron, UTC):");
  await page.reload();
  await expect(policy.getByLabel("Run checkpoints", { exact: true })).toHaveValue("30");

  await policy.getByLabel("Run checkpoints", { exact: true }).fill("45");
  await policy.getByLabel("Schedule (cron, UTC)").fill("15 3 * * *");
  await policy.getByRole("button", { name: "Save policy" }).press("Enter");
  await expect(policy.getByText("Policy saved.")).toBeVisible();
  await page.reload();
  await expect(policy.getByLabel("Run checkpoints", { exact: true })).toHaveValue("45");
  await expect(policy.getByLabel("Schedule (cron, UTC)")).toHaveValue("15 3 * * *");

  // The dry run shows what would go and removes nothing: the history stays empty.
  await expect(page.getByText("The policy has not been applied yet")).toBeVisible();
  await page.getByRole("button", { name: "Preview (dry run)" }).click();
  const preview = page.getByTestId("retention-preview");
  await expect(preview).toContainText(/Nothing is past its retention now|Would remove/);
  await expect(page.getByText("The policy has not been applied yet")).toBeVisible();

  // Apply now asks first, in the page; then the run is in the history with its chain row.
  await page.getByRole("button", { name: "Apply now" }).click();
  await page.getByRole("button", { name: "Apply policy" }).click();
  const history = page.getByTestId("retention-history");
  await expect(history.getByRole("listitem")).toHaveCount(1);
  await expect(history).toContainText("Admin");
  await expect(history).toContainText(/Removed \d+ trace events?/);
  await expect(history).toContainText(/Recorded as chain row \d+/);

  // The chain still verifies after the application.
  const verify = await page.request.post("/api/audit/verify", { data: {} });
  expect((await verify.json()).status).toBe("ok");

  const context = await browser.newContext({
    storageState: await page.context().storageState(),
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  const phone = await context.newPage();
  await phone.goto("/audit/retention");
  await expect(phone.getByRole("heading", { level: 1, name: "Retention" })).toBeVisible();
  await expectNoHorizontalOverflow(phone);
  await phone.getByRole("button", { name: "Preview (dry run)" }).click();
  await expect(phone.getByTestId("retention-preview")).toBeVisible();
  await expectNoHorizontalOverflow(phone);
  await context.close();
});

test("a member gets the 403 page for retention and 403 from its API", async ({ page }) => {
  await signIn(page, "expert@demo.local");
  const response = await page.goto("/audit/retention");
  expect(response?.status()).toBe(403);
  const api = await page.request.get("/api/audit/retention");
  expect(api.status()).toBe(403);
  const erase = await page.request.post("/api/audit/erasures", { data: { user_id: "anyone" } });
  expect(erase.status()).toBe(403);
});
