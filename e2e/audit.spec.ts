import { randomUUID } from "node:crypto";
import { expect, test } from "./fixtures";
import { expectNoHorizontalOverflow, finishedRun, navLabels, phonePage, signIn } from "./support";

// The audit trail in the browser: an admin verifies the chain, finds a finished autonomous run
// in the list, and reads its timeline (filtered by type), its sub-agent tree and the decisions
// taken at its checkpoints, on a desktop and on a phone. A member gets the 403 page.

test("an admin verifies the chain and reads a finished run's timeline, tree and decisions", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  await signIn(page, "admin@demo.local");
  await expect(page).toHaveURL(/\/audit$/);
  await expect(page.getByRole("heading", { level: 1, name: "Audit" })).toBeVisible();

  const runId = await finishedRun(page);

  // Integrity: verify now, and the panel says how far the chain held.
  await page.reload();
  // The chart counts today's run among the last 30 days' and draws it.
  const chart = page.getByTestId("runs-per-day-chart");
  await expect(chart.locator("svg.recharts-surface").first()).toBeVisible();
  expect(Number(await chart.getAttribute("data-total"))).toBeGreaterThanOrEqual(1);
  await expect(chart.locator(".recharts-bar-rectangle").first()).toBeVisible();
  const integrity = page.getByTestId("integrity-panel");
  await integrity.getByRole("button", { name: "Verify now" }).click();
  await expect(integrity).toHaveAttribute("data-status", "ok");
  await expect(integrity.getByRole("heading", { name: "Chain verified" })).toBeVisible();
  await expect(integrity).toContainText(/Every row held up to row \d+/);
  await expect(integrity).toContainText("Last verified");

  // The decisions taken at its checkpoints, each linking back to the run.
  await page.getByRole("navigation", { name: "Audit" }).getByRole("link", { name: "Decisions" }).click();
  await expect(page).toHaveURL(/\/audit\/decisions$/);
  const decisions = page.getByTestId("audit-decision-row");
  await expect(decisions.first()).toContainText("Avery Admin");
  await expect(decisions.first()).toContainText("Checked for the audit");
  await expect(decisions.first().getByRole("link", { name: "its run" })).toHaveAttribute(
    "href",
    `/audit/runs/${runId}`,
  );

  await page.getByRole("navigation", { name: "Audit" }).getByRole("link", { name: "Overview" }).click();
  await expect(page).toHaveURL(/\/audit$/);

  // The list, filtered to completed runs, by keyboard.
  const filters = page.getByRole("form", { name: "Filter runs" });
  await filters.getByLabel("Status").selectOption("completed");
  await filters.getByRole("button", { name: "Apply" }).press("Enter");
  const row = page.locator(`[data-testid="audit-run-row"][data-run-id="${runId}"]`);
  await expect(row).toBeVisible();
  await expect(row).toContainText("Completed");
  await filters.getByLabel("Status").selectOption("failed");
  await filters.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByText("No run matches these filters")).toBeVisible();
  await filters.getByRole("button", { name: "Clear" }).click();
  await row.click();
  await expect(page).toHaveURL(new RegExp(`/audit/runs/${runId}$`));

  // The timeline, then only the sub-agent spawns.
  const events = page.getByTestId("timeline-event");
  await expect(events.first()).toBeVisible();
  const total = await events.count();
  expect(total).toBeGreaterThan(5);
  await expect(events.first()).toHaveAttribute("data-event-type", "run_start");
  await page.getByLabel("Event type").selectOption("subagent_spawn");
  const spawns = await events.count();
  expect(spawns).toBeGreaterThan(0);
  expect(spawns).toBeLessThan(total);
  for (const type of await events.evaluateAll((els) => els.map((e) => e.getAttribute("data-event-type")))) {
    expect(type).toBe("subagent_spawn");
  }

  // The tree: the expert at the top and the specialists it delegated to beneath it.
  const tree = page.getByRole("list", { name: "Sub-agent hierarchy" });
  await expect(tree.locator('[data-testid="audit-hierarchy-node"][data-depth="1"]')).toHaveCount(1);
  expect(await tree.locator('[data-testid="audit-hierarchy-node"][data-depth="2"]').count()).toBeGreaterThan(0);

  // Each checkpoint with the decision taken on it, by whom and with what note.
  const checkpoints = page.getByTestId("audit-checkpoint");
  expect(await checkpoints.count()).toBeGreaterThan(1);
  const decision = checkpoints.first().getByTestId("audit-decision");
  await expect(decision).toContainText("approved by Avery Admin");
  await expect(decision).toContainText("Checked for the audit");

  // The same page on a phone.
  const phone = await phonePage(browser, page);
  await phone.goto(`/audit/runs/${runId}`);
  await expect(phone.getByTestId("timeline-event").first()).toBeVisible();
  await expectNoHorizontalOverflow(phone);
  await phone.goto("/audit");
  await expect(phone.getByTestId("audit-run-row").first()).toBeVisible();
  await expectNoHorizontalOverflow(phone);
  await phone.context().close();
});

test("a member gets the 403 page inside the app and 403 from the audit API", async ({ page }) => {
  await signIn(page, "expert@demo.local");
  const response = await page.goto("/audit");
  expect(response?.status()).toBe(403);
  await expect(page.getByRole("heading", { level: 1, name: "Not available for your role" })).toBeVisible();
  expect(await navLabels(page)).toEqual(["Experts", "Runs", "Research", "My requests"]);
  const api = await page.request.get("/api/audit/runs");
  expect(api.status()).toBe(403);
  expect((await api.json()).code).toBe("FORBIDDEN");
  const detail = await page.goto(`/audit/runs/${randomUUID()}`);
  expect(detail?.status()).toBe(403);
});
