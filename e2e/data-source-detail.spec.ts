import { expect, test } from "./fixtures";
import { expectNoHorizontalOverflow, phonePage, signIn } from "./support";

test("an admin reads the demo warehouse's join graph, edits its overrides and checks a registry", async ({
  browser,
  page,
}) => {
  // The first read of the warehouse loads the sample databases into it.
  test.setTimeout(300_000);
  await signIn(page, "admin@demo.local");
  await page.goto("/settings/data-sources");
  await page.getByRole("link", { name: "Demo warehouse" }).click();
  await expect(page).toHaveURL(/\/settings\/data-sources\/[0-9a-f-]{36}$/);
  const detailPath = new URL(page.url()).pathname;
  await expect(page.getByRole("heading", { level: 1, name: "Demo warehouse" })).toBeVisible();

  await expect(page.getByTestId("graph-version")).toContainText("Version 1", { timeout: 240_000 });
  await page.getByLabel("Filter relationships").fill("shippers");
  const shipVia = page.getByTestId("relationship").filter({ hasText: "northwind.orders.ship_via" });
  await expect(shipVia).toContainText("northwind.shippers.shipper_id");
  await expect(shipVia).toContainText("1.00");
  await expect(shipVia).toContainText("fk");
  await expect(shipVia).toContainText("N:1");
  await page.getByLabel("Filter tables").fill("northwind.shippers");
  const tables = page.getByRole("table", { name: "Tables" });
  await expect(tables.getByRole("row")).toHaveCount(2);

  // Keyboard: the arrow key moves from the graph to the overrides.
  await page.getByRole("tab", { name: "Join graph" }).focus();
  await page.keyboard.press("ArrowRight");
  await expect(page.getByRole("tab", { name: "Overrides" })).toHaveAttribute("aria-selected", "true");

  const form = page.getByRole("form", { name: "Join graph overrides" });
  const editor = form.getByLabel("Overrides JSON");
  await expect(editor).toHaveValue(/"table_metadata": \{\}/);
  await editor.fill('{"table_metadata": {');
  await form.getByRole("button", { name: "Save overrides" }).click();
  await expect(form.getByRole("alert")).toContainText("Not valid JSON");

  await editor.fill(JSON.stringify({ table_metadata: { shippers: { role: "boss" } } }));
  await form.getByRole("button", { name: "Save overrides" }).click();
  await expect(form.getByRole("alert")).toContainText("table_metadata.shippers.role");

  await editor.fill(JSON.stringify({ table_metadata: { shippers: { role: "satellite", note: "carriers only" } } }));
  await form.getByRole("button", { name: "Save overrides" }).click();
  const history = page.getByRole("list", { name: "Join graph versions" });
  await expect(history.getByRole("listitem")).toHaveCount(2);
  await expect(history.getByRole("listitem").first()).toContainText("Version 2");
  await expect(form.getByRole("alert")).toHaveCount(0);

  // The earlier version stays readable.
  await history.getByRole("button", { name: "View version 1" }).click();
  await expect(page.getByTestId("graph-version")).toContainText("Version 1 (an earlier version)");
  await page.getByRole("button", { name: "Show the current version" }).click();
  await expect(page.getByTestId("graph-version")).toContainText("Version 2 (current)");
  await page.getByLabel("Filter tables").fill("northwind.shippers");
  await expect(tables.getByRole("row").nth(1)).toContainText("satellite");

  // A display registry naming a column Northwind does not have is refused, by path.
  await page.getByRole("tab", { name: "Registries" }).click();
  await page.getByRole("combobox", { name: "Registry", exact: true }).selectOption("display");
  const registry = page.getByRole("form", { name: "display registry of northwind" });
  await expect(registry.getByLabel("Registry JSON")).toHaveValue(/northwind\.customers/);
  await registry
    .getByLabel("Registry JSON")
    .fill(JSON.stringify({ version: 1, tables: { "northwind.customers": { display_columns: ["shoe_size"] } } }));
  await registry.getByRole("button", { name: "Save registry" }).click();
  await expect(registry.getByRole("alert")).toContainText('tables["northwind.customers"].display_columns[0]');

  const phone = await phonePage(browser, page);
  await phone.goto(detailPath);
  await expect(phone.getByTestId("graph-version")).toContainText("Version 2");
  await expectNoHorizontalOverflow(phone);
  await phone.getByRole("tab", { name: "Overrides" }).click();
  await expect(phone.getByLabel("Overrides JSON")).toBeVisible();
  await expectNoHorizontalOverflow(phone);
  await phone.context().close();
});

test("a member gets the 403 page for a data source", async ({ page }) => {
  await signIn(page, "expert@demo.local");
  const response = await page.goto("/settings/data-sources/00000000-0000-4000-8000-000000000000");
  expect(response?.status()).toBe(403);
  await expect(page.getByRole("heading", { name: "Not available for your role" }).first()).toBeVisible();
});
