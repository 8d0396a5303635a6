import { randomUUID } from "node:crypto";
import { type Browser, expect, type Page, test } from "./fixtures";
import { signIn, startStrictRunAsReviewer } from "./support";

// The audit overview's charts in the browser: after a finished autonomous run, the demo admin
// sees every chart count it, reads a chart's figures by keyboard, switches the range, and on a
// phone nothing overflows. Acme's admin sees none of it.

const GOAL =
  "Should we file a 510(k) or request De Novo classification for our new glucose monitor? Check adverse event reporting with the pharmacovigilance expert and the cost per QALY with the health economist: 45000 / 0.9.";

interface RunBody {
  run: { status: string; waitingOn: { caseId: string } | null; error: string | null };
}

/** Starts a strict autonomous run (as the reviewer) and approves each checkpoint until it finishes. */
async function finishedRun(page: Page): Promise<number> {
  const runId = await startStrictRunAsReviewer(page, GOAL);
  let decided: string | null = null;
  for (let approvals = 0; approvals < 40; approvals++) {
    let body: RunBody | null = null;
    await expect
      .poll(
        async () => {
          body = (await (await page.request.get(`/api/runs/${runId}`)).json()) as RunBody;
          const { status, waitingOn } = body.run;
          if (status === "running" || (status === "interrupted" && waitingOn?.caseId === decided)) return "working";
          return status;
        },
        { timeout: 30_000, intervals: [250] },
      )
      .not.toBe("working");
    const run = (body as RunBody | null)?.run;
    if (run?.status !== "interrupted") {
      expect(run?.status, run?.error ?? "").toBe("completed");
      return approvals;
    }
    decided = run.waitingOn?.caseId ?? null;
    const res = await page.request.post(`/api/hitl/cases/${decided}/decision`, {
      data: { request_id: randomUUID(), decision: "approved", notes: "Checked for the charts" },
    });
    expect(res.status(), await res.text()).toBe(200);
  }
  throw new Error("the run did not finish");
}

async function expectNoHorizontalOverflow(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

async function phonePage(browser: Browser, page: Page): Promise<Page> {
  const context = await browser.newContext({
    storageState: await page.context().storageState(),
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  return context.newPage();
}

const total = async (page: Page, testId: string) => Number(await page.getByTestId(testId).getAttribute("data-total"));

test("the demo admin reads the charts of a finished run, by keyboard, over another range and on a phone", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  await signIn(page, "admin@demo.local");
  const approvals = await finishedRun(page);
  expect(approvals).toBeGreaterThan(1);

  await page.goto("/audit");
  const charts = page.getByTestId("audit-charts");
  await expect(charts.getByRole("heading", { level: 2, name: "Activity" })).toBeVisible();
  await expect(charts).toHaveAttribute("data-days", "30");
  for (const title of [
    "Runs per day",
    "Review cases per day",
    "Approval and rejection rates",
    "Review latency and clarification turnaround",
    "Tokens and cost per day",
    "Tokens and cost per agent",
    "Error rate by node",
  ]) {
    await expect(charts.getByRole("heading", { level: 3, name: title })).toBeVisible();
  }

  // The run, its checkpoints' cases and the decisions on them are counted and drawn.
  const runs = page.getByTestId("runs-per-day-chart");
  await expect(runs.locator(".recharts-bar-rectangle").first()).toBeVisible();
  expect(await total(page, "runs-per-day-chart")).toBeGreaterThanOrEqual(1);
  expect(await total(page, "cases-per-day-chart")).toBeGreaterThanOrEqual(approvals);
  expect(await total(page, "decision-rates-chart")).toBeGreaterThanOrEqual(approvals);
  expect(await total(page, "review-times-chart")).toBeGreaterThanOrEqual(approvals);
  expect(await total(page, "node-error-chart")).toBeGreaterThan(0);
  await expect(page.getByTestId("decision-rates-chart").locator(".recharts-bar-rectangle").first()).toBeVisible();
  await expect(page.getByTestId("node-error-chart").locator("svg.recharts-surface")).toBeVisible();

  // The figures behind a drawing, opened from the keyboard: today's approvals are all there.
  const decisions = page.getByTestId("decision-rates-chart");
  await decisions.getByText("Figures").focus();
  await page.keyboard.press("Enter");
  const table = decisions.getByRole("table", { name: "Approval and rejection rates" });
  await expect(table).toBeVisible();
  const today = new Date().toLocaleDateString("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
  const todayRow = table.getByRole("row").filter({ has: page.getByRole("rowheader", { name: new RegExp(today) }) });
  await expect(todayRow).toContainText(new RegExp(`${approvals} \\(100%\\)`));

  // Another range: the server's figures for it replace the 30 days.
  const weekAnswer = page.waitForResponse((r) => r.url().includes("/api/audit/charts?days=7") && r.ok());
  // The radio is visually hidden behind its label, which is what a pointer clicks.
  await charts.locator("label", { hasText: "7 days" }).click();
  await weekAnswer;
  await expect(charts.getByRole("radio", { name: "7 days" })).toBeChecked();
  await expect(charts).toHaveAttribute("data-days", "7");
  await expect(runs).toContainText("in the last 7 days (UTC)");
  await expect(runs.locator(".recharts-bar-rectangle").first()).toBeVisible();
  // Arrow keys move between the ranges.
  await charts.getByRole("radio", { name: "7 days" }).focus();
  await page.keyboard.press("ArrowRight");
  await expect(charts.getByRole("radio", { name: "30 days" })).toBeChecked();
  await page.keyboard.press("ArrowRight");
  await expect(charts.getByRole("radio", { name: "90 days" })).toBeChecked();
  await expect(charts).toHaveAttribute("data-days", "90");
  await expect(runs).toContainText("in the last 90 days (UTC)");

  // On a phone: every chart fits, with its figures open too.
  const phone = await phonePage(browser, page);
  await phone.goto("/audit");
  await expect(phone.getByTestId("runs-per-day-chart").locator(".recharts-bar-rectangle").first()).toBeVisible();
  await expect(phone.getByTestId("usage-per-agent-chart")).toBeVisible();
  await expectNoHorizontalOverflow(phone);
  await phone.getByTestId("usage-per-day-chart").getByText("Figures").click();
  await expect(phone.getByTestId("usage-per-day-chart").getByRole("table")).toBeVisible();
  await expectNoHorizontalOverflow(phone);
  await phone.context().close();
});

test("acme's admin sees none of demo's activity, and a member gets 403 from the charts API", async ({ page }) => {
  await signIn(page, "admin@acme.local");
  await page.goto("/audit");
  const runs = page.getByTestId("runs-per-day-chart");
  await expect(runs).toHaveAttribute("data-empty", "true");
  await expect(runs).toContainText("No runs in these 30 days");
  await expect(page.getByTestId("decision-rates-chart")).toContainText("No decisions in these 30 days");
  await expect(page.getByTestId("node-error-chart")).toContainText("No workflow node ran in these 30 days");

  await page.context().clearCookies();
  await signIn(page, "expert@demo.local");
  const api = await page.request.get("/api/audit/charts?days=30");
  expect(api.status()).toBe(403);
  expect((await api.json()).code).toBe("FORBIDDEN");
});
