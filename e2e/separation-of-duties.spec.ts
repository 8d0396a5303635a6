import { expect, test } from "./fixtures";
import { signIn } from "./support";

// Four eyes in the browser: a reviewer who starts a strict run approves its plan, but the run's
// page and the inbox tell them why they may not approve its tool execution, and an admin (another
// pair of eyes) approves it from the inbox.

const GOAL =
  "Should we file a 510(k) or request De Novo classification for our new glucose monitor? Check adverse event reporting with the pharmacovigilance expert and the cost per QALY with the health economist: 45000 / 0.9.";

test("a strict run's owner approves the plan, is told why not the tool, and another reviewer decides it", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  await signIn(page, "reviewer@demo.local");
  await page.goto("/runs");
  await page.getByLabel("Goal").fill(GOAL);
  await page.getByLabel("Expert").selectOption("fda-regulatory");
  await page.getByRole("radio", { name: /^Strict/ }).check();
  await page.getByRole("button", { name: "Start run" }).click();
  await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}$/);

  const card = page.getByTestId("checkpoint-card");
  await expect(card).toHaveAttribute("data-checkpoint-type", "plan_approval", { timeout: 30_000 });
  await card.getByTestId("checkpoint-actions").getByRole("button", { name: "Approve", exact: true }).click();

  await expect(card).toHaveAttribute("data-checkpoint-type", "tool_execution", { timeout: 30_000 });
  const caseId = (await card.getAttribute("data-case-id")) as string;
  await expect(card.getByTestId("decider-reason")).toContainText("Four eyes");
  await expect(card.getByTestId("checkpoint-actions")).toHaveCount(0);

  // The same rule in the inbox: the owner sees the case, and why the decision is not theirs.
  const inbox = await page.context().newPage();
  await inbox.goto(`/inbox?case=${encodeURIComponent(caseId)}`);
  const detail = inbox.getByTestId("case-detail");
  await expect(detail.getByTestId("decider-reason")).toContainText("Four eyes");
  await expect(detail.getByRole("button", { name: /^Approve/ })).toBeDisabled();
  await inbox.close();

  // An admin approves it from the inbox; the owner's page goes on to the next checkpoint.
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signIn(admin, "admin@demo.local");
  await admin.goto(`/inbox?case=${encodeURIComponent(caseId)}`);
  const adminDetail = admin.getByTestId("case-detail");
  await expect(adminDetail.getByTestId("decider-reason")).toHaveCount(0);
  await adminDetail.getByRole("button", { name: /^Approve/ }).click();
  await expect(admin.getByText("Approved.").first()).toBeVisible({ timeout: 20_000 });
  await adminContext.close();

  await expect(card).not.toHaveAttribute("data-case-id", caseId, { timeout: 30_000 });
});
