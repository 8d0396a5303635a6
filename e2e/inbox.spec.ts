import { randomUUID } from "node:crypto";
import { type Browser, expect, type Page, test } from "./fixtures";
import { signIn } from "./support";

const MEMBER = "expert@demo.local";
const REVIEWER = "reviewer@demo.local";
const ADMIN = "admin@demo.local";

/** A signed-in page in a browser context of its own (its own cookies). */
async function pageFor(browser: Browser, email: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, email);
  return page;
}

/** Submits an LGV case through the API with the page's session; returns its id and a text unique to it. */
async function submitCase(page: Page): Promise<{ id: string; lgv: string }> {
  const lgv = `LGV-${randomUUID().slice(0, 8)}`;
  const res = await page.request.post("/api/hitl/cases", {
    data: {
      request_id: randomUUID(),
      adapter_id: "lgv_troubleshooting",
      case_type: "incident",
      title: `${lgv} stops at the dock entrance`,
      submitter: { name: "Erin Expert", role: "LGV support engineer", team: "Lyon DC2 maintenance" },
      priority: "high",
      payload: {
        symptom: "Stops at the dock entrance with a navigation fault",
        site: "Lyon DC2",
        lgv_id: lgv,
        services_checked: ["navigation", "wifi"],
        evidence: [{ source: "fleet manager log", observation: "NAV_LOST at 03:12" }],
        proposed_next_action: "Re-survey reflectors in aisle 4",
      },
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  const body = await res.json();
  return { id: body.caseId, lgv };
}

test("a reviewer approves a case from the inbox with a note, by keyboard", async ({ browser }) => {
  const member = await pageFor(browser, MEMBER);
  const { id, lgv } = await submitCase(member);

  const reviewer = await pageFor(browser, REVIEWER);
  await reviewer.goto("/inbox");
  await expect(reviewer.getByRole("heading", { name: "Review inbox", exact: true })).toBeVisible();
  await expect(reviewer.getByTestId("shortcuts")).toContainText("a approve");
  const row = reviewer.locator(`[data-case-id="${id}"]`);
  await expect(row).toContainText(`LGV ${lgv} at Lyon DC2`);
  // The adapter's key reads as words, its abbreviation in capitals.
  await expect(row).toContainText("LGV troubleshooting");
  await expect(reviewer.getByTestId("count-pending")).not.toHaveText("0");
  await row.click();
  await expect(reviewer).toHaveURL(new RegExp(`\\?case=${id}$`));

  const detail = reviewer.getByTestId("case-detail");
  await expect(detail.getByRole("heading", { name: new RegExp(lgv) })).toBeVisible();
  await expect(detail.getByTestId("case-state")).toHaveText("Pending");
  await expect(detail).toContainText("Re-survey reflectors in aisle 4");
  await expect(detail).toContainText("NAV_LOST at 03:12");
  await expect(detail.getByTestId("history-event")).toHaveCount(1);

  await detail.getByLabel("Notes (recorded with the decision)").fill("Reflectors were moved last week");
  await reviewer.keyboard.press("Escape");
  await reviewer.keyboard.press("a");

  await expect(detail.getByTestId("case-decision")).toContainText("Approved by Riley Reviewer at");
  await expect(detail.getByTestId("case-state")).toHaveText("Approved");
  await expect(detail.getByTestId("history-event")).toHaveCount(2);
  await expect(detail).toContainText("Notes: Reflectors were moved last week");
  await expect(detail.getByRole("button", { name: /Approve/ })).toHaveCount(0);
  // It left the pending queue.
  await expect(row).toHaveCount(0);

  const stored = await member.request.get(`/api/hitl/cases/${id}`);
  expect((await stored.json()).case.state).toMatchObject({ state: "approved", outcome: "approved" });
});

test("a member sees a case but no decide buttons, and answers the reviewer's question", async ({ browser }) => {
  const member = await pageFor(browser, MEMBER);
  const { id, lgv } = await submitCase(member);

  await member.goto(`/inbox?case=${id}`);
  const detail = member.getByTestId("case-detail");
  await expect(detail.getByRole("heading", { name: new RegExp(lgv) })).toBeVisible();
  await expect(member.locator(`[data-case-id="${id}"]`)).toBeVisible();
  for (const name of [/^Approve/, /^Reject/, /Modify and approve/, /Ask for clarification/]) {
    await expect(member.getByRole("button", { name })).toHaveCount(0);
  }
  await expect(member.getByTestId("shortcuts")).not.toContainText("approve");
  await member.keyboard.press("a");
  await member.keyboard.press("r");
  await expect(detail.getByTestId("case-state")).toHaveText("Pending");

  // A reviewer asks through the UI (c focuses the question box).
  const reviewer = await pageFor(browser, REVIEWER);
  await reviewer.goto(`/inbox?case=${id}`);
  const reviewerDetail = reviewer.getByTestId("case-detail");
  await expect(reviewerDetail.getByRole("heading", { name: new RegExp(lgv) })).toBeVisible();
  await reviewer.keyboard.press("c");
  await expect(reviewerDetail.getByLabel("Question for the submitter")).toBeFocused();
  await reviewer.keyboard.type("Which firmware does it run?");
  await reviewerDetail.getByRole("button", { name: /Ask for clarification/ }).click();
  await expect(reviewerDetail.getByTestId("case-state")).toHaveText("Needs clarification");

  // The member's page refreshes on its own and offers the answer box.
  await expect(detail.getByTestId("open-question")).toHaveText("Which firmware does it run?", { timeout: 20_000 });
  await detail.getByLabel("Your answer").fill("4.2.1");
  await detail.getByRole("button", { name: "Send answer" }).click();
  await expect(detail.getByTestId("case-state")).toHaveText("Pending");
  await expect(detail).toContainText("Answer: 4.2.1");
  await expect(detail.getByTestId("history-event")).toHaveCount(3);
});

test("when someone else decided first, the inbox shows their decision instead of an error", async ({ browser }) => {
  const member = await pageFor(browser, MEMBER);
  const { id, lgv } = await submitCase(member);

  const reviewer = await pageFor(browser, REVIEWER);
  // The reviewer's view of the case is the one from before the admin's decision (as if the
  // refresh had not come yet).
  const before = await (await reviewer.request.get(`/api/hitl/cases/${id}`)).json();
  await reviewer.route(`**/api/hitl/cases/${id}`, (route) => route.fulfill({ json: before }));
  await reviewer.goto(`/inbox?case=${id}`);
  const detail = reviewer.getByTestId("case-detail");
  await expect(detail.getByRole("heading", { name: new RegExp(lgv) })).toBeVisible();

  const admin = await pageFor(browser, ADMIN);
  const decided = await admin.request.post(`/api/hitl/cases/${id}/decision`, {
    data: { request_id: randomUUID(), decision: "approved", notes: "Urgent fix" },
  });
  expect(decided.status()).toBe(200);

  await detail.getByRole("button", { name: /^Reject/ }).click();
  await expect(detail.getByTestId("standing-decision")).toContainText("Approved by Avery Admin at");
  await expect(detail.getByRole("alert")).toHaveCount(0);

  await reviewer.unroute(`**/api/hitl/cases/${id}`);
  await expect(detail.getByTestId("case-decision")).toContainText("Approved by Avery Admin", { timeout: 20_000 });
  const history = await (await reviewer.request.get(`/api/hitl/cases/${id}/history`)).json();
  expect(history.items.map((e: { type: string }) => e.type)).toEqual(["submitted", "decision_recorded"]);
});

test("a single-key approval waits for Undo: undone, nothing is sent; let go, it is sent", async ({ browser }) => {
  test.setTimeout(90_000);
  const member = await pageFor(browser, MEMBER);
  const { id, lgv } = await submitCase(member);
  const reviewer = await pageFor(browser, REVIEWER);
  await reviewer.goto(`/inbox?case=${id}`);
  const detail = reviewer.getByTestId("case-detail");
  await expect(detail.getByRole("heading", { name: new RegExp(lgv) })).toBeVisible();
  const history = async () =>
    ((await (await reviewer.request.get(`/api/hitl/cases/${id}/history`)).json()).items as { type: string }[]).map(
      (e) => e.type,
    );

  // `a`, then Undo in the toast: nothing reaches the server, even after the delay.
  await reviewer.keyboard.press("a");
  // The toast counts down with the card (one due time), so it reads 5, 4, 3… seconds.
  const toast = reviewer.locator("[data-sonner-toast]").filter({ hasText: /Approving in \d seconds?…/ });
  await expect(toast).toBeVisible();
  await expect(toast).toContainText(`${lgv} stops at the dock entrance`);
  await expect(detail.getByTestId("pending-approval")).toContainText(/Approving in \d s/);
  await expect(detail.getByRole("button", { name: /^Approve/ })).toBeDisabled();
  await expect(detail.getByRole("button", { name: /^Reject/ })).toBeDisabled();
  await toast.getByRole("button", { name: "Undo" }).click();
  await expect(detail.getByTestId("pending-approval")).toHaveCount(0);
  await expect(detail).toContainText("Approval undone; nothing was sent.");
  await reviewer.waitForTimeout(6_500);
  expect(await history()).toEqual(["submitted"]);
  await expect(detail.getByTestId("case-state")).toHaveText("Pending");

  // The button waits the same way, and `u` takes it back.
  await detail.getByRole("button", { name: /^Approve/ }).click();
  await expect(detail.getByTestId("pending-approval")).toBeVisible();
  await reviewer.keyboard.press("u");
  await expect(detail.getByTestId("pending-approval")).toHaveCount(0);
  await expect(toast).toHaveCount(0);

  // Let go: not sent at once, sent when the window closes.
  await detail.getByRole("button", { name: /^Approve/ }).click();
  await expect(toast).toBeVisible();
  expect(await history()).toEqual(["submitted"]);
  await expect(detail.getByTestId("case-decision")).toContainText("Approved by Riley Reviewer at");
  await expect(reviewer.locator("[data-sonner-toast]").filter({ hasText: "Approved." })).toBeVisible();
  expect(await history()).toEqual(["submitted", "decision_recorded"]);
});

test("a reviewer's nav counts the open cases and follows new ones; a member's has no inbox", async ({ browser }) => {
  test.setTimeout(90_000);
  const member = await pageFor(browser, MEMBER);
  await submitCase(member);
  const reviewer = await pageFor(browser, REVIEWER);
  const counts = (await (await reviewer.request.get("/api/hitl/queue/counts")).json()).counts as {
    pending: number;
    needsClarification: number;
  };
  const open = counts.pending + counts.needsClarification;
  expect(open).toBeGreaterThan(0);
  const badge = reviewer.getByRole("navigation", { name: "Main" }).getByTestId("nav-open-cases");
  await expect(badge).toHaveAttribute("data-count", String(open));
  await expect(reviewer.getByRole("link", { name: "Inbox" })).toHaveAccessibleDescription(
    `${open} open ${open === 1 ? "case" : "cases"}`,
  );

  // A case submitted elsewhere shows up without a reload.
  await submitCase(member);
  await expect(badge).toHaveAttribute("data-count", String(open + 1), { timeout: 45_000 });

  await expect(member.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Inbox" })).toHaveCount(0);
  await expect(member.getByTestId("nav-open-cases")).toHaveCount(0);
});

test("an admin replaces a decision with a reason; both stay in the history", async ({ browser }) => {
  const member = await pageFor(browser, MEMBER);
  const { id, lgv } = await submitCase(member);
  const admin = await pageFor(browser, ADMIN);
  const decided = await admin.request.post(`/api/hitl/cases/${id}/decision`, {
    data: { request_id: randomUUID(), decision: "approved" },
  });
  expect(decided.status()).toBe(200);

  await admin.goto(`/inbox?case=${id}`);
  const detail = admin.getByTestId("case-detail");
  await expect(detail.getByRole("heading", { name: new RegExp(lgv) })).toBeVisible();
  await expect(detail.getByTestId("case-state")).toHaveText("Approved");
  const supersede = detail.getByTestId("supersede");
  await supersede.getByText("Replace this decision (admin)").click();
  await expect(supersede.getByLabel("Rejected")).toBeChecked();
  // Without a reason nothing is sent.
  await supersede.getByRole("button", { name: "Replace the decision" }).click();
  await expect(supersede.getByRole("alert")).toHaveText("Say why the decision is replaced.");
  await supersede.getByLabel("Reason (recorded in the history)").fill("The reflector survey shows aisle 4 is fine.");
  await supersede.getByRole("button", { name: "Replace the decision" }).click();

  await expect(detail.getByTestId("case-state")).toHaveText("Rejected");
  await expect(detail.getByTestId("case-decision")).toContainText("replacing the first decision");
  await expect(detail.getByTestId("history-event")).toHaveCount(3);
  await expect(detail).toContainText("Decision replaced: now rejected");
  await expect(detail).toContainText("Notes: The reflector survey shows aisle 4 is fine.");

  const history = await (await member.request.get(`/api/hitl/cases/${id}/history`)).json();
  const [, first, replacement] = history.items as { id: string; type: string; supersedesEventId: string | null }[];
  expect(replacement).toMatchObject({ type: "decision_superseded", supersedesEventId: first.id });

  // A reviewer sees the replaced decision but no way to replace it.
  const reviewer = await pageFor(browser, REVIEWER);
  await reviewer.goto(`/inbox?case=${id}`);
  await expect(reviewer.getByTestId("case-detail").getByTestId("case-state")).toHaveText("Rejected");
  await expect(reviewer.getByTestId("supersede")).toHaveCount(0);
});
