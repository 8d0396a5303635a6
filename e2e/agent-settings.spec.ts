import { expect, test } from "./fixtures";
import { signIn } from "./support";

test("an admin sets a tool's risk, an agent's tools and the principles", async ({ page }) => {
  await signIn(page, "admin@demo.local");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
  await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Agent settings" }).click();
  await expect(page).toHaveURL(/\/settings\/agents$/);
  await expect(page.getByRole("heading", { level: 1, name: "Agent tools & principles" })).toBeVisible();

  // A tool's risk, tenant-wide.
  const risk = page.getByLabel("Risk of calculator");
  await expect(risk).toHaveValue("low");
  await risk.selectOption("high");
  await page.getByRole("button", { name: "Save calculator" }).click();
  await expect(page.getByRole("button", { name: "Save calculator" })).toBeDisabled();
  await page.reload();
  await expect(page.getByLabel("Risk of calculator")).toHaveValue("high");

  // One agent's tools.
  await page.getByRole("combobox", { name: "Agent", exact: true }).selectOption("fda-regulatory");
  const askExpert = page.getByLabel("may use ask_expert");
  await expect(askExpert).toBeChecked();
  await askExpert.uncheck();
  await expect(askExpert).not.toBeChecked();
  await expect(askExpert).toBeEnabled();
  await page.reload();
  await page.getByRole("combobox", { name: "Agent", exact: true }).selectOption("fda-regulatory");
  await expect(page.getByLabel("may use ask_expert")).not.toBeChecked();

  // The principles: a house rule of the tenant's own, then back to the defaults.
  await expect(page.getByText("Using the built-in defaults")).toBeVisible();
  const before = await page.getByTestId("principle-row").count();
  await page.getByRole("button", { name: "Add principle" }).click();
  const n = before + 1;
  await page.getByLabel(`Id of principle ${n}`).fill("house_style");
  await page.getByLabel(`Description of principle ${n}`).fill("Write in the house style.");
  await page.getByLabel(`Severity of principle ${n}`).selectOption("low");
  // Enabled without a check it would read as enforced while nothing checks it: refused, under the check.
  await page.getByRole("button", { name: "Save principles" }).click();
  await expect(page.getByText(/Give this principle a check/)).toBeVisible();
  await expect(page.getByLabel(`Check of principle ${n}`)).toHaveAttribute("aria-invalid", "true");
  // Judged by the model: its criterion starts as the principle's words; with no model configured
  // here it cannot be enabled without a fallback, said under the check.
  await page.getByLabel(`Check of principle ${n}`).selectOption("judged");
  await expect(
    page.getByLabel(`The criterion the model judges answers, plans and decisions by (principle ${n})`),
  ).toHaveValue("Write in the house style.");
  await page.getByRole("button", { name: "Save principles" }).click();
  await expect(page.getByText(/No model is configured to judge this principle/)).toBeVisible();
  await page.getByLabel(`Check of principle ${n}`).selectOption("forbidden_phrases");
  await page.getByLabel(`Phrases, separated by commas (principle ${n})`).fill("Competitor Inc");
  await page.getByRole("button", { name: "Save principles" }).click();
  await expect(page.getByText("Using the built-in defaults")).toBeHidden();
  const house = page.getByTestId("principle-row").filter({ has: page.locator('input[value="house_style"]') });
  await expect(house).not.toContainText("kept but not enforced by the validator");
  await page.reload();
  await expect(page.getByTestId("principle-row")).toHaveCount(n);
  // Saved principles come back ordered by id: the row's number may have changed.
  await expect(house.getByLabel(/^Check of principle \d+$/)).toHaveValue("forbidden_phrases");
  await expect(house.getByLabel(/^Phrases, separated by commas \(principle \d+\)$/)).toHaveValue("Competitor Inc");
  // Kept as a note, disabled: saved, and said not to be enforced.
  await house.getByLabel(/^Check of principle \d+$/).selectOption("none");
  await house.getByLabel(/^Principle \d+ enabled$/).uncheck();
  await page.getByRole("button", { name: "Save principles" }).click();
  await expect(house).toContainText("kept but not enforced by the validator");

  // Asked in the page, not in a browser dialog; Escape backs out.
  await page.getByRole("button", { name: "Restore defaults" }).click();
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("principle-row")).toHaveCount(n);
  await page.getByRole("button", { name: "Restore defaults" }).click();
  await page
    .getByRole("group", { name: /Replace this tenant's principles/ })
    .getByRole("button", { name: "Restore defaults" })
    .click();
  await expect(page.getByText("Using the built-in defaults")).toBeVisible();
  await expect(page.getByTestId("principle-row")).toHaveCount(before);

  // Put back what this test changed.
  await page.getByLabel("Risk of calculator").selectOption("low");
  await page.getByRole("button", { name: "Save calculator" }).click();
  await expect(page.getByRole("button", { name: "Save calculator" })).toBeDisabled();
  await page.getByRole("combobox", { name: "Agent", exact: true }).selectOption("fda-regulatory");
  await page.getByLabel("may use ask_expert").check();
  await expect(page.getByLabel("may use ask_expert")).toBeChecked();
  await page.reload();
  await expect(page.getByLabel("Risk of calculator")).toHaveValue("low");
  await page.getByRole("combobox", { name: "Agent", exact: true }).selectOption("fda-regulatory");
  await expect(page.getByLabel("may use ask_expert")).toBeChecked();
});

test("a member opening the agent settings is told it needs the admin role", async ({ page }) => {
  await signIn(page, "expert@demo.local");
  await page.goto("/settings/agents");
  await expect(page.getByText("Not available for your role")).toBeVisible();
  const api = await page.request.put("/api/tools/calculator", { data: { risk_level: "critical" } });
  expect(api.status()).toBe(403);
});
