import { type Browser, expect, type Page, test } from "./fixtures";
import { signIn } from "./support";

// A reviewer's question on an autonomous run's checkpoint reaches the run's owner: the member
// starts a strict run, the reviewer opens its plan approval in the inbox (laid out as the run
// page lays it out, titled with the goal, with its timeout) and asks for clarification; the
// owner sees the question on the run page and in "My requests" (with the nav badge), answers
// there, the reviewer approves, and the run goes on past the plan.

const GOAL =
  "Should we file a 510(k) or request De Novo classification for our new glucose monitor? Check adverse event reporting with the pharmacovigilance expert and the cost per QALY with the health economist: 45000 / 0.9.";
const QUESTION = "Which device class does the monitor fall into?";
const ANSWER = "Class II, with a cleared predicate device.";

async function pageFor(browser: Browser, email: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, email);
  return page;
}

test("a reviewer's question on a run checkpoint is answered by the run's owner and the run continues", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const owner = await pageFor(browser, "expert@demo.local");
  await owner.goto("/runs");
  await owner.getByLabel("Goal").fill(GOAL);
  await owner.getByLabel("Expert").selectOption("fda-regulatory");
  await owner.getByRole("radio", { name: /^Strict/ }).check();
  await owner.getByRole("button", { name: "Start run" }).click();
  await expect(owner).toHaveURL(/\/runs\/[0-9a-f-]{36}$/);
  const runId = new URL(owner.url()).pathname.split("/").pop() as string;

  // The run stops at its plan; the owner sees when the checkpoint times out.
  const card = owner.getByTestId("checkpoint-card");
  await expect(card).toHaveAttribute("data-checkpoint-type", "plan_approval", { timeout: 60_000 });
  const caseId = (await card.getAttribute("data-case-id")) as string;
  await expect(card.getByTestId("checkpoint-timeout")).toHaveText(/^Times out in \d+ min$/);

  // The reviewer reads the same checkpoint in the inbox: titled with the goal, the plan as steps,
  // the candidates with their scores, the timeout.
  const reviewer = await pageFor(browser, "reviewer@demo.local");
  await reviewer.goto(`/inbox?case=${caseId}`);
  const detail = reviewer.getByTestId("case-detail");
  await expect(detail.getByRole("heading", { name: /^Approve the plan for: Should we file a 510\(k\)/ })).toBeVisible();
  const asks = detail.getByTestId("case-checkpoint");
  await expect(asks.getByTestId("plan-steps").getByRole("listitem").first()).toBeVisible();
  await expect(asks.getByTestId("candidate-plan").first()).toContainText("score");
  await expect(asks.getByTestId("checkpoint-timeout")).toHaveText(/^Times out in \d+ min$/);
  await expect(asks.getByTestId("case-run-goal")).toHaveText(GOAL);

  // Changing the plan from the inbox uses the run page's step editor, not a generic form.
  await detail.getByRole("button", { name: /Modify and approve/ }).click();
  await expect(detail.getByTestId("plan-step-editor").first()).toBeVisible();
  await detail.getByRole("button", { name: /Cancel changes/ }).click();
  await expect(detail.getByTestId("plan-step-editor")).toHaveCount(0);

  await detail.getByLabel("Question for the run's owner").fill(QUESTION);
  await detail.getByRole("button", { name: /Ask for clarification/ }).click();
  await expect(detail.getByTestId("case-state")).toHaveText("Needs clarification");

  // The owner's run page shows the question (and the paused clock) on its own.
  await expect(card.getByTestId("open-question")).toHaveText(QUESTION, { timeout: 20_000 });
  await expect(card.getByTestId("checkpoint-timeout")).toHaveAttribute("data-paused", "true");
  // The nav badge counts it; "My requests" lists it under the owner's runs.
  await expect(owner.getByTestId("nav-waiting-on-you").first()).toHaveAttribute("data-count", /^[1-9]/, {
    timeout: 45_000,
  });
  await owner
    .getByRole("navigation", { name: "Main" })
    .getByRole("link", { name: /My requests/ })
    .click();
  await expect(owner).toHaveURL(/\/requests$/);
  const item = owner.locator(`[data-testid="my-run-case"][data-case-id="${caseId}"]`);
  await expect(item).toHaveAttribute("data-state", "needs_clarification");
  await expect(item.getByTestId("open-question")).toHaveText(QUESTION);
  await item.getByLabel("Your answer").fill(ANSWER);
  await item.getByRole("button", { name: "Send answer" }).click();
  await expect(item).toHaveAttribute("data-state", "pending", { timeout: 20_000 });
  await expect(item.getByTestId("open-question")).toHaveCount(0);

  // Back with the reviewer: the answer is in the history; they approve the plan.
  await expect(detail.getByTestId("case-state")).toHaveText("Pending", { timeout: 20_000 });
  await expect(detail).toContainText(ANSWER);
  await detail.getByRole("button", { name: /^Approve/ }).click();
  await expect(detail.getByTestId("case-state")).toHaveText("Approved", { timeout: 30_000 });

  // The run goes on past the plan: the owner's run page shows the plan approved and work beyond it.
  await owner.goto(`/runs/${runId}`);
  await expect
    .poll(
      async () => {
        const res = await owner.request.get(`/api/runs/${runId}`);
        const body = (await res.json()) as {
          run: {
            status: string;
            waitingOn: { caseId: string } | null;
            state: { checkpoints: { case_id: string | null; approval_status: string }[] };
          };
        };
        const plan = body.run.state.checkpoints.find((c) => c.case_id === caseId);
        return plan?.approval_status === "approved" && body.run.waitingOn?.caseId !== caseId;
      },
      { timeout: 60_000, intervals: [1_000] },
    )
    .toBe(true);
  await expect(owner.getByTestId("run-view")).not.toHaveAttribute("data-run-status", "failed");
  await expect(owner.getByTestId("checkpoint-card")).not.toHaveAttribute("data-case-id", caseId, { timeout: 30_000 });
});
