import { expect, test } from "./fixtures";
import { expectNoHorizontalOverflow, finishedRun, phonePage, signIn } from "./support";

// The printable report of a finished run, and the alert rules: an admin opens the report from
// the run, verifies the chain from it, prints it (no app chrome on paper, a real PDF), and reads
// it on a phone; then edits an alert threshold and finds it kept. Nobody else sees either.

let runId = "";

test("an admin opens a finished run's report, verifies the chain from it and prints it", async ({ page, browser }) => {
  test.setTimeout(180_000);
  await signIn(page, "admin@demo.local");
  runId = await finishedRun(page);

  await page.goto(`/audit/runs/${runId}`);
  await page.getByRole("link", { name: "Printable report" }).click();
  await expect(page).toHaveURL(new RegExp(`/audit/runs/${runId}/report$`));
  const report = page.getByTestId("run-report");
  for (const name of [
    "Request",
    "Cost and activity",
    "Chain verification",
    "Steps",
    "Checkpoints and decisions",
    "Constitutional validations",
    "Evidence per claim",
  ]) {
    await expect(report.getByRole("heading", { level: 2, name })).toBeVisible();
  }
  await expect(page.getByTestId("report-request")).toBeVisible();
  await expect(report).toContainText(runId);
  await expect(report).toContainText("Avery Admin");
  expect(await page.getByTestId("report-step").count()).toBeGreaterThan(5);
  const decision = report.getByTestId("audit-decision").first();
  await expect(decision).toContainText("approved by Avery Admin");
  await expect(decision).toContainText("Checked for the audit");

  // Verified from the report: the latest verification now covers this run's rows.
  const chain = page.getByTestId("report-chain");
  await chain.getByRole("button", { name: "Verify the chain now" }).click();
  await expect(chain).toHaveAttribute("data-covers-run", "true");
  await expect(chain).toHaveAttribute("data-status", "ok");
  await expect(chain).toContainText("this run's included");
  await expect(chain.locator("code").last()).toHaveText(/^[0-9a-f]{64}$/);

  // On paper: the report alone, without the app's header, tabs or buttons.
  await page.emulateMedia({ media: "print" });
  await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
  await expect(page.getByRole("navigation", { name: "Audit" })).toBeHidden();
  await expect(page.getByRole("button", { name: "Print" })).toBeHidden();
  await expect(report.getByRole("heading", { level: 2, name: "Steps" })).toBeVisible();
  const pdf = await page.pdf({ format: "A4" });
  expect(pdf.subarray(0, 4).toString("latin1")).toBe("%PDF");
  expect(pdf.length).toBeGreaterThan(5_000);
  await page.emulateMedia({ media: "screen" });
  await expect(page.getByRole("button", { name: "Print" })).toBeVisible();

  const phone = await phonePage(browser, page);
  await phone.goto(`/audit/runs/${runId}/report`);
  await expect(phone.getByTestId("report-step").first()).toBeVisible();
  await expectNoHorizontalOverflow(phone);
  await phone.context().close();
});

test("an admin edits an alert threshold by keyboard and finds it kept", async ({ page, browser }) => {
  await signIn(page, "admin@demo.local");
  const summary = page.getByTestId("alerts-summary");
  await expect(summary.getByRole("heading", { name: /No alerts|firing/ })).toBeVisible();
  await summary.getByRole("link", { name: "Thresholds and history" }).click();
  await expect(page).toHaveURL(/\/audit\/alerts$/);
  await expect(page.getByRole("heading", { level: 1, name: "Alerts" })).toBeVisible();
  await expect(page.getByTestId("alert-rule")).toHaveCount(4);

  const rule = page.locator('[data-testid="alert-rule"][data-rule="phi_access_spike"]');
  await expect(rule.getByTestId("alert-threshold")).toHaveText("100");
  await rule.getByLabel("Threshold (events)").fill("250");
  await rule.getByLabel("Window (minutes)").fill("30");
  await rule.getByLabel("Window (minutes)").press("Enter");
  await expect(rule.getByTestId("alert-threshold")).toHaveText("250");

  await page.reload();
  const kept = page.locator('[data-testid="alert-rule"][data-rule="phi_access_spike"]');
  await expect(kept.getByTestId("alert-threshold")).toHaveText("250");
  await expect(kept.getByLabel("Threshold (events)")).toHaveValue("250");
  await expect(kept.getByLabel("Window (minutes)")).toHaveValue("30");
  await expect(kept).toContainText("over the last 30 min");

  // A bad value is refused with the server's reason, and nothing changes.
  const bad = await page.request.put("/api/audit/alerts/run_failure_rate", {
    data: { threshold: 3, window_minutes: 15, enabled: true },
  });
  expect(bad.status()).toBe(400);
  expect((await bad.json()).code).toBe("VALIDATION_FAILED");

  const phone = await phonePage(browser, page);
  await phone.goto("/audit/alerts");
  await expect(phone.getByTestId("alert-rule").first()).toBeVisible();
  await expectNoHorizontalOverflow(phone);
  await phone.context().close();
});

test("members and reviewers get 403 on the report and the alerts; another tenant's admin gets 404", async ({
  page,
}) => {
  expect(runId, "the first test made a run").not.toBe("");
  for (const email of ["expert@demo.local", "reviewer@demo.local"]) {
    await page.context().clearCookies();
    await signIn(page, email);
    expect((await page.goto(`/audit/runs/${runId}/report`))?.status()).toBe(403);
    expect((await page.goto("/audit/alerts"))?.status()).toBe(403);
    expect((await page.request.get("/api/audit/alerts")).status()).toBe(403);
    const put = await page.request.put("/api/audit/alerts/phi_access_spike", {
      data: { threshold: 1, window_minutes: 5, enabled: true },
    });
    expect(put.status()).toBe(403);
  }
  await page.context().clearCookies();
  await signIn(page, "admin@acme.local");
  expect((await page.goto(`/audit/runs/${runId}/report`))?.status()).toBe(404);
  await page.goto("/audit/alerts");
  const acmeRule = page.locator('[data-testid="alert-rule"][data-rule="phi_access_spike"]');
  await expect(acmeRule.getByTestId("alert-threshold")).toHaveText("100");
});
