import { setStrictDeciders } from "./decider-policy";
import { type Browser, expect, type Locator, type Page, test } from "./fixtures";
import { signIn } from "./support";

// An autonomous run in the browser, at the strict safety level: a reviewer starts it from /runs
// and decides every checkpoint on the run's page (the tenant's policy set so that a strict run's
// owner may decide them all: by default its tools, sub-agents, decision and final review need
// another reviewer — e2e/separation-of-duties.spec.ts) — the plan, each tool, each sub-agent, the
// decision (another option than the recommendation) and the final answer (edited) — until it
// completes with a cited answer. On the way: a reload at a checkpoint shows the same state, the
// checkpoint is in the inbox too, and the page fits a phone.

const GOAL =
  "Should we file a 510(k) or request De Novo classification for our new glucose monitor? Check adverse event reporting with the pharmacovigilance expert and the cost per QALY with the health economist: 45000 / 0.9.";
const EDIT = "Reviewed by the regulatory team.";

/** The page does not scroll sideways (a phone's 390 px). */
async function expectNoHorizontalOverflow(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

/** The same signed-in person on a phone-sized page. */
async function phonePage(browser: Browser, page: Page): Promise<Page> {
  const context = await browser.newContext({
    storageState: await page.context().storageState(),
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  return context.newPage();
}

/** Waits for the run to stop at the next checkpoint (other than `after`) or to finish; returns the checkpoint's type. */
/** The run's plan as the server holds it. */
async function planOf(page: Page, runId: string): Promise<{ kind: string; tool?: string }[]> {
  const res = await page.request.get(`/api/runs/${runId}`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as { run: { state: { todo: { kind: string; tool?: string }[] } } }).run.state.todo;
}

async function nextStop(page: Page, card: Locator, after: string | null): Promise<string | null> {
  let type: string | null = null;
  // What the server says while the page still shows "working": printed if the wait times out, so
  // a failure tells a page that missed an update from a run that really stalled.
  let server = "";
  try {
    await expect
      .poll(
        async () => {
          const status = await page.getByTestId("run-view").getAttribute("data-run-status");
          if (status === "completed" || status === "failed" || status === "cancelled") {
            type = null;
            return status;
          }
          const working = async () => {
            const runId = new URL(page.url()).pathname.split("/").pop();
            const body = (await (await page.request.get(`/api/runs/${runId}`)).json()) as {
              run?: { status: string; waitingOn?: { caseId?: string; checkpointType?: string } | null };
            };
            server = JSON.stringify({ status: body.run?.status, waitingOn: body.run?.waitingOn ?? null, after });
            return "working";
          };
          if ((await card.count()) === 0) return working();
          const caseId = await card.getAttribute("data-case-id");
          if (caseId === after) return working();
          type = await card.getAttribute("data-checkpoint-type");
          return "checkpoint";
        },
        { timeout: 60_000, intervals: [500] },
      )
      .not.toBe("working");
  } catch (error) {
    throw new Error(`The page still shows the last checkpoint; the server says ${server}\n${(error as Error).message}`);
  }
  return type;
}

test("a reviewer runs a strict autonomous run from /runs through every checkpoint to a cited answer", async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  await setStrictDeciders(browser, "owner");
  await signIn(page, "reviewer@demo.local");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Runs" }).click();
  await expect(page).toHaveURL(/\/runs$/);
  await expect(page.getByRole("heading", { name: "New autonomous run" })).toBeVisible();

  await page.getByLabel("Goal").fill(GOAL);
  await page.getByLabel("Expert").selectOption("fda-regulatory");
  await page.getByRole("radio", { name: /^Strict/ }).check();
  await page.getByRole("button", { name: "Start run" }).click();
  await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}$/);
  const runPath = new URL(page.url()).pathname;
  const runId = runPath.split("/").pop() as string;
  await expect(page.getByTestId("run-goal")).toHaveText(GOAL);

  const card = page.getByTestId("checkpoint-card");
  let proposed = 0;
  const seen: string[] = [];
  let caseId: string | null = null;
  for (let stops = 0; stops < 12; stops++) {
    const type = await nextStop(page, card, caseId);
    if (type === null) break;
    seen.push(type);
    caseId = await card.getAttribute("data-case-id");
    const actions = card.getByTestId("checkpoint-actions");

    switch (type) {
      case "plan_approval": {
        // The plan (every step the run holds) and the Tree-of-Thoughts candidates it was chosen
        // from, with their scores.
        await expect(card.getByTestId("plan-steps").getByRole("listitem").first()).toBeVisible();
        proposed = await card.getByTestId("plan-steps").getByRole("listitem").count();
        expect(proposed).toBeGreaterThanOrEqual(4);
        await expect(card.getByTestId("candidate-plan")).toHaveCount(3);
        await expect(card.getByTestId("candidate-plan").first()).toContainText("score");
        // The pending checkpoint is also a case in the reviewer's inbox.
        const inbox = await page.context().newPage();
        await inbox.goto("/inbox");
        await expect(inbox.locator(`[data-case-id="${caseId}"]`)).toBeVisible();
        await inbox.close();
        // A phone shows the checkpoint without scrolling sideways.
        const phone = await phonePage(browser, page);
        await phone.goto(page.url());
        await expect(phone.getByTestId("checkpoint-card")).toBeVisible();
        await expectNoHorizontalOverflow(phone);
        await phone.context().close();
        await actions.getByRole("button", { name: "Approve", exact: true }).click();
        break;
      }
      case "tool_execution": {
        // Under the step it concerns, which waits for it.
        const step = page.getByTestId("todo-step").filter({ has: card });
        await expect(step).toHaveAttribute("data-status", "waiting");
        if (seen.filter((t) => t === "tool_execution").length === 1) {
          // A reload at a checkpoint shows the same run, the same checkpoint, the same waiting step.
          const stepId = await step.getAttribute("data-step-id");
          await page.reload();
          await expect(page.getByTestId("run-goal")).toHaveText(GOAL);
          await expect(card).toHaveAttribute("data-case-id", caseId as string);
          await expect(page.getByTestId("todo-step").filter({ has: card })).toHaveAttribute(
            "data-step-id",
            stepId as string,
          );
          await expect(page.locator(`[data-step-id="${stepId}"]`)).toHaveAttribute("data-status", "waiting");
          await expect(page.getByTestId("checkpoint-history-entry")).toHaveCount(1);
        }
        await expect(card).toContainText("Parameters");
        await actions.getByRole("button", { name: "Approve", exact: true }).click();
        break;
      }
      case "critical_decision": {
        await expect(card.getByTestId("decision-options")).toContainText("recommended");
        await actions.getByRole("button", { name: "Approve with changes…" }).click();
        const picker = card.getByTestId("option-picker");
        const options = picker.getByRole("radio");
        await expect(options).toHaveCount(2);
        // Not the recommendation: the other option.
        const other = (await options.nth(0).isChecked()) ? options.nth(1) : options.nth(0);
        await other.check();
        await picker.getByRole("button", { name: "Approve this option" }).click();
        break;
      }
      case "final_review": {
        await expect(card.getByTestId("run-answer").getByTestId("citation-badge").first()).toBeVisible();
        await actions.getByRole("button", { name: "Approve with changes…" }).click();
        const text = card.getByLabel("Response text");
        await text.fill(`${await text.inputValue()}\n\n${EDIT}`);
        await card.getByRole("button", { name: "Approve with changes", exact: true }).click();
        break;
      }
      default:
        await actions.getByRole("button", { name: "Approve", exact: true }).click();
    }
  }

  await expect(page.getByTestId("run-view")).toHaveAttribute("data-run-status", "completed");
  // The plan the run worked is the one the checkpoint showed, step for step.
  const plan = await planOf(page, runId);
  expect(plan).toHaveLength(proposed);
  expect(seen[0]).toBe("plan_approval");
  // A strict run asks at every tool call and every delegation the plan holds.
  expect(seen.filter((t) => t === "tool_execution")).toHaveLength(plan.filter((s) => s.kind === "tool").length);
  expect(seen.filter((t) => t === "subagent_spawn")).toHaveLength(plan.filter((s) => s.kind === "delegate").length);
  expect(plan.filter((s) => s.kind === "delegate")).toHaveLength(2);
  expect(seen.at(-2)).toBe("critical_decision");
  expect(seen.at(-1)).toBe("final_review");

  // Every step done, every checkpoint in the history, the reviewer's edit in the answer.
  const steps = page.getByTestId("todo-step");
  await expect(steps).toHaveCount(plan.length);
  await expect(page.locator('[data-testid="todo-step"][data-status="done"]')).toHaveCount(plan.length);
  await expect(page.getByTestId("checkpoint-history-entry")).toHaveCount(seen.length);
  await expect(page.getByTestId("checkpoint-history")).toContainText("By you");
  const answer = page.getByTestId("run-answer");
  await expect(answer).toContainText(EDIT);

  // Each [n] of the answer is a listed source, and opens it.
  const badges = answer.getByTestId("citation-badge");
  expect(await badges.count()).toBeGreaterThan(0);
  for (const label of await badges.evaluateAll((els) => els.map((el) => el.getAttribute("aria-label") ?? ""))) {
    const n = /^Source (\d+):/.exec(label)?.[1];
    expect(n, label).toBeTruthy();
    await expect(page.locator(`#answer-source-${n}[data-testid="run-source"]`)).toBeVisible();
  }
  const first = badges.first();
  const n = /^Source (\d+):/.exec((await first.getAttribute("aria-label")) ?? "")?.[1];
  await first.click();
  await expect(page.locator(`#answer-source-${n}`)).toBeFocused();

  // The agents that worked it, and the evidence behind the claims.
  await expect(page.locator('[data-testid="hierarchy-node"][data-level="l3_specialist"]')).toHaveCount(2);
  await expect(page.locator('[data-testid="hierarchy-node"][data-level="l4_worker"]').first()).toBeVisible();
  await expect(page.getByTestId("evidence-claim").first()).toBeVisible();

  // The run is listed, completed, on /runs.
  await page.getByRole("link", { name: "← All runs" }).click();
  const row = page.locator(`[data-testid="run-row"][data-run-id="${runId}"]`);
  await expect(row).toContainText("Should we file a 510(k)");
  await expect(row.getByTestId("run-status")).toHaveText("Completed");

  // The finished run on a phone: no sideways scrolling either.
  const phone = await phonePage(browser, page);
  await phone.goto(runPath);
  await expect(phone.getByTestId("run-answer")).toBeVisible();
  await expectNoHorizontalOverflow(phone);
  await phone.context().close();
});

// Back to the defaults whatever happened above: a policy left at "owner" would make the
// four-eyes specs that run later fail for a reason not their own.
test.afterEach(async ({ browser }) => {
  await setStrictDeciders(browser, "defaults");
});
