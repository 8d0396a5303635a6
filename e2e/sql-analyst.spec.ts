import { expect, test } from "./fixtures";
import { signIn } from "./support";

// The Data Analyst in the browser, on the demo warehouse: a question answered with a chart, a
// table and the SQL that ran, a follow-up from its chip, and another tenant kept out.

const AGENT = "Data Analyst (SQL)";

test("a member asks about orders per shipper in 1997 and sees a chart, a table and the SQL, then 1998", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, "expert@demo.local");
  await page.goto("/chat/new?agent=data-analyst");
  const composer = page.getByLabel(`Message ${AGENT}`);
  await composer.fill("How many orders did each shipper deliver in 1997?");
  await composer.press("Enter");

  const result = page.getByTestId("sql-result").last();
  // The demo warehouse loads on its first use: the first answer may take a few seconds.
  await expect(result).toBeVisible({ timeout: 90_000 });
  await expect(result.getByTestId("sql-chart")).toBeVisible();
  // Chosen while the new conversation is still becoming /chat/<id>: the page then renders the
  // stored conversation, and the result keeps the view the person chose.
  await result.getByRole("button", { name: "Table" }).click();
  await expect(page).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("assistant-message").last()).toHaveAttribute("aria-busy", "false");
  const table = result.getByTestId("sql-table");
  for (const shipper of ["United Package", "Federal Shipping", "Speedy Express"]) {
    await expect(table.getByText(shipper)).toBeVisible();
  }
  await expect(result.getByRole("button", { name: "Table" })).toHaveAttribute("aria-pressed", "true");
  await result.getByText("Show SQL").click();
  await expect(result.getByTestId("sql-code")).toContainText('"northwind"."orders"');
  await expect(page.getByTestId("answer").last()).toContainText("1997");

  await page.getByTestId("sql-followup").filter({ hasText: "And in 1998?" }).click();
  await expect(page.getByTestId("sql-result")).toHaveCount(2, { timeout: 60_000 });
  await expect(page.getByTestId("answer").last()).toContainText("1998");

  // Reopened, the conversation shows both results again.
  await page.reload();
  await expect(page.getByTestId("sql-result")).toHaveCount(2, { timeout: 30_000 });
});

test("another tenant's people cannot use the demo warehouse or its analyst", async ({ page }) => {
  await signIn(page, "admin@demo.local");
  const sources = await (await page.request.get("/api/datasources")).json();
  const demoWarehouse = sources.items.find((s: { name: string }) => s.name === "Demo warehouse");
  expect(demoWarehouse).toBeTruthy();
  await page.context().clearCookies();

  await signIn(page, "expert@acme.local");
  const chat = await page.request.post("/api/chat", {
    data: { agentId: "data-analyst", message: "How many orders did each shipper deliver in 1997?" },
  });
  expect(chat.status()).toBe(404);
  expect((await page.request.get(`/api/datasources/${demoWarehouse.id}`)).status()).toBe(403);
  await page.context().clearCookies();

  await signIn(page, "admin@acme.local");
  const acme = await (await page.request.get("/api/datasources")).json();
  expect(acme.items.map((s: { id: string }) => s.id)).not.toContain(demoWarehouse.id);
  expect((await page.request.get(`/api/datasources/${demoWarehouse.id}`)).status()).toBe(404);
  expect((await page.request.post(`/api/datasources/${demoWarehouse.id}/test`, { data: {} })).status()).toBe(404);
});

test("a member picks the data source beside the composer, and the conversation keeps it", async ({ page }) => {
  test.setTimeout(180_000);
  // An admin adds a second source; the demo warehouse is made the default first, so that other
  // conversations meanwhile keep asking it (adding a source moves no one).
  await signIn(page, "admin@demo.local");
  const listed = await (await page.request.get("/api/datasources")).json();
  const demo = listed.items.find((s: { name: string }) => s.name === "Demo warehouse");
  expect((await page.request.put(`/api/datasources/${demo.id}`, { data: { isDefault: true } })).status()).toBe(200);
  const name = `Music store ${Date.now()}`;
  const created = await page.request.post("/api/datasources", {
    data: { name, kind: "warehouse", allowedSchemas: ["chinook"] },
  });
  expect(created.status()).toBe(201);
  const music = (await created.json()).source;
  await page.context().clearCookies();

  try {
    await signIn(page, "expert@demo.local");
    await page.goto("/chat/new?agent=data-analyst");
    const picker = page.getByLabel("Data source");
    await expect(picker).toBeVisible();
    await expect(picker.locator("option:checked")).toHaveText("Demo warehouse (default)");
    // Keyboard first: focus the picker and choose the other source.
    await picker.focus();
    await picker.selectOption({ label: name });
    const composer = page.getByLabel(`Message ${AGENT}`);
    await composer.fill("How many tracks are there in each genre?");
    await composer.press("Enter");
    const result = page.getByTestId("sql-result").last();
    await expect(result).toBeVisible({ timeout: 90_000 });
    await result.getByText("Show SQL").click();
    await expect(result.getByTestId("sql-code")).toContainText('"chinook"');

    // Reopened, the conversation still shows (and asks) the picked source.
    await page.waitForURL(/\/chat\/[0-9a-f-]{36}$/);
    await page.reload();
    await expect(page.getByLabel("Data source").locator("option:checked")).toHaveText(name);
  } finally {
    await page.context().clearCookies();
    await signIn(page, "admin@demo.local");
    await page.request.delete(`/api/datasources/${music.id}`);
    await page.request.put(`/api/datasources/${demo.id}`, { data: { isDefault: false } });
  }
});
