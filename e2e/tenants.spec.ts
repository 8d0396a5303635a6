import { expect, test } from "./fixtures";
import { signIn } from "./support";

test("the demo admin switches to Acme, sees Acme's experts and knowledge, and switches back", async ({ page }) => {
  await signIn(page, "admin@demo.local");
  const switcher = page.getByRole("combobox", { name: "Tenant" });
  await expect(switcher).toBeVisible();
  await expect(switcher.getByRole("option")).toHaveText(["Demo Pharma (admin)", "Acme Devices (admin)"]);
  await expect(switcher.locator("option:checked")).toHaveText("Demo Pharma (admin)");

  await page.goto("/experts");
  const cards = page.getByTestId("expert-card");
  await expect(cards.filter({ hasText: "FDA Regulatory Specialist" })).toHaveCount(1);

  await switcher.selectOption({ label: "Acme Devices (admin)" });
  await expect(cards.filter({ hasText: "Device Quality Engineer" })).toHaveCount(1);
  await expect(cards).toHaveCount(2);
  await expect(cards.filter({ hasText: "FDA Regulatory Specialist" })).toHaveCount(0);
  await expect(page.getByTestId("current-role")).toHaveText("admin");

  // Acme's knowledge base, not Demo Pharma's; the choice holds across pages.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Knowledge" }).click();
  const rows = page.getByTestId("document-row");
  await expect(rows.filter({ hasText: /CAPA/ }).first()).toBeVisible();
  await expect(rows.filter({ hasText: "510(k)" })).toHaveCount(0);
  await expect(switcher.locator("option:checked")).toHaveText("Acme Devices (admin)");

  // Back in Demo Pharma: Acme's documents are gone from the list. (Which of Demo Pharma's fill
  // the first page depends on what other specs uploaded, newest first.)
  await switcher.selectOption({ label: "Demo Pharma (admin)" });
  await expect(rows.filter({ hasText: /CAPA/ })).toHaveCount(0);
  await expect(rows.first()).toBeVisible();
  await page.goto("/experts");
  await expect(cards.filter({ hasText: "FDA Regulatory Specialist" })).toHaveCount(1);
  await expect(cards).toHaveCount(6);
});

test("an account in one tenant sees its name, not a switcher", async ({ page }) => {
  await signIn(page, "admin@acme.local");
  await expect(page.getByRole("combobox", { name: "Tenant" })).toHaveCount(0);
  await expect(page.getByTestId("tenant-name")).toHaveText("Acme Devices");
});
