import { expect, test } from "@playwright/test";
import { expectNoHorizontalOverflow, phonePage, signIn } from "./support";

test("an admin tests the demo warehouse, adds a source, sees it unreachable and removes it", async ({
  browser,
  page,
}) => {
  // The first test of the warehouse loads the sample databases into it.
  test.setTimeout(240_000);
  await signIn(page, "admin@demo.local");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Data sources" }).click();
  await expect(page).toHaveURL(/\/settings\/data-sources$/);
  await expect(page.getByRole("heading", { level: 1, name: "Data sources" })).toBeVisible();

  const warehouse = page.getByRole("listitem", { name: "Demo warehouse" });
  await expect(warehouse).toContainText("northwind, chinook, pagila");
  await warehouse.getByRole("button", { name: "Test" }).click();
  await expect(warehouse.getByTestId("test-outcome")).toContainText("read-only role", { timeout: 180_000 });
  await expect(warehouse.getByTestId("test-outcome")).toContainText("Schemas found: chinook, northwind, pagila");

  const form = page.getByRole("form", { name: "Add data source" });
  await form.getByLabel("Name").fill("Nowhere");
  await form.getByLabel("Connection string").fill("postgres://analyst:hunter2-secret@127.0.0.1:1/sales");
  await form.getByLabel("Allowed schemas").fill("public, sales");
  await form.getByRole("button", { name: "Add data source" }).click();
  const added = page.getByRole("listitem", { name: "Nowhere" });
  await expect(added).toContainText("127.0.0.1:1/sales");
  await expect(page.getByText("hunter2-secret")).toHaveCount(0);
  await added.getByRole("button", { name: "Test" }).click();
  await expect(added.getByTestId("test-outcome")).toContainText("Unreachable");

  const phone = await phonePage(browser, page);
  await phone.goto("/settings/data-sources");
  await expect(phone.getByRole("listitem", { name: "Nowhere" })).toBeVisible();
  await expectNoHorizontalOverflow(phone);
  await phone.context().close();

  await added.getByRole("button", { name: "Remove Nowhere" }).click();
  await page.getByRole("button", { name: "Remove source" }).click();
  await expect(page.getByRole("listitem", { name: "Nowhere" })).toHaveCount(0);
});
