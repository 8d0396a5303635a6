import { expect, test } from "./fixtures";
import { expectNoHorizontalOverflow, phonePage, signIn } from "./support";

test("an admin tests the demo warehouse, adds a source, sees it unreachable and removes it", async ({
  browser,
  page,
}) => {
  // The first test of the warehouse loads the sample databases into it.
  test.setTimeout(240_000);
  await signIn(page, "admin@demo.local");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
  await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Data sources" }).click();
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

test("a source whose role can write stays disabled until an admin accepts the risk, with a reason", async ({
  page,
}) => {
  test.setTimeout(120_000);
  // The machine's PostgreSQL as its superuser: a role Test cannot verify read-only.
  const server = new URL(process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
  const name = `Writable ${Date.now()}`;
  await signIn(page, "admin@demo.local");
  await page.goto("/settings/data-sources");
  const form = page.getByRole("form", { name: "Add data source" });
  await form.getByLabel("Name").fill(name);
  await form
    .getByLabel("Connection string")
    .fill(`postgres://${server.username || "postgres"}@${server.host}/postgres`);
  await form.getByLabel("Allowed schemas").fill("public");
  await form.getByRole("button", { name: "Add data source" }).click();
  const added = page.getByRole("listitem", { name });
  await expect(added.getByTestId("source-disabled")).toBeVisible();

  await added.getByRole("button", { name: "Test" }).click();
  await expect(added.getByTestId("test-outcome")).toBeVisible({ timeout: 30_000 });
  // Tested and found able to write: still disabled, and the acceptance needs a reason.
  await expect(added.getByTestId("source-disabled")).toBeVisible();
  const accept = added.getByRole("button", { name: "Accept the risk" });
  await expect(accept).toBeDisabled();
  await added.getByLabel("Why the risk is acceptable").fill("Staging replica; the role is revoked on Friday");
  await accept.click();
  await expect(added.getByTestId("risk-accepted")).toBeVisible();
  await expect(added.getByTestId("source-disabled")).toHaveCount(0);

  // (The acceptance's record in the audit trail is checked in tests/datasources/safety.test.ts.)
  await added.getByRole("button", { name: `Remove ${name}` }).click();
  await page.getByRole("button", { name: "Remove source" }).click();
  await expect(page.getByRole("listitem", { name })).toHaveCount(0);
});
