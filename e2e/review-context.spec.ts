import { type Browser, expect, type Page, test } from "./fixtures";
import { specServerPort } from "./ports";
import { api as apiAt, reviewingServer, signInAt } from "./server-process";
import { PASSWORD } from "./support";

// The reviewer's side of a chat answer under review, in the browser. This server sends every
// answer to review (VIGIL_REVIEW_CONFIDENCE=0.999, which the suite's own server cannot be given
// per test), so a member's question in the chat opens a final_review case.

const PORT = specServerPort(4);
const BASE = `http://127.0.0.1:${PORT}`;
const DATA_DIR = ".data/e2e-review-context";
const AGENT = "Clinical Trial Designer";
const QUESTION = "How does randomisation work in clinical trials?";
const PHONE_QUESTION = "What is block randomisation?";
const EDITED = "Randomisation assigns each participant to an arm by chance, so the arms stay comparable [1].";

reviewingServer(PORT, DATA_DIR);

async function pageFor(browser: Browser, email: string, viewport?: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ baseURL: BASE, ...(viewport ? { viewport } : {}) });
  const page = await context.newPage();
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/(experts|inbox|audit)$/);
  return page;
}

interface SourceView {
  n: number;
  title: string;
}
interface CaseBody {
  case: {
    id: string;
    summary: string;
    payload: { response_text: string };
    refs: { ref_type: string; ref_value: string }[];
  };
  history: { type: string; modifications: Record<string, unknown> | null }[];
  context: { sessionId: string; answer: { text: string; citations: number[] }; sources: SourceView[] } | null;
}

/** Asks the agent in the chat as the page's member; returns the new session's id. */
async function ask(page: Page, question: string): Promise<string> {
  await page.goto("/chat/new?agent=clinical-trial-designer");
  const composer = page.getByLabel(`Message ${AGENT}`);
  await composer.fill(question);
  await composer.press("Enter");
  await expect(page).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
  return new URL(page.url()).pathname.split("/").pop() as string;
}

/** The final_review case the answer to a question opened, once it exists. */
async function caseOfQuestion(cookie: string, question: string): Promise<CaseBody> {
  for (let i = 0; i < 150; i++) {
    const queue = await apiAt(BASE, cookie, "/api/hitl/queue?adapter_id=final_review&limit=100");
    const item = (queue.body.items as { id: string; summary: string }[] | undefined)?.find(
      (c) => c.summary === `Answer to: ${question}`,
    );
    if (item) return (await apiAt(BASE, cookie, `/api/hitl/cases/${item.id}`)).body as unknown as CaseBody;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("the answer opened no review case");
}

test("a reviewer decides a chat answer seeing the question, the asker and the sources, and edits it in the form", async ({
  browser,
}) => {
  test.setTimeout(180_000);

  // A member asks in the chat; the answer goes to review.
  const member = await pageFor(browser, "expert@demo.local");
  const sessionId = await ask(member, QUESTION);

  const reviewerCookie = await signInAt(BASE, "reviewer@demo.local");
  const stored = await caseOfQuestion(reviewerCookie, QUESTION);
  const caseId = stored.case.id;
  expect(stored.context?.sessionId).toBe(sessionId);
  const sources = stored.context?.sources ?? [];
  expect(sources.length).toBeGreaterThan(0);

  // The reviewer's nav counts the open case (this server's only one); the inbox lists it.
  const reviewer = await pageFor(browser, "reviewer@demo.local");
  const navCount = reviewer.getByRole("navigation", { name: "Main" }).getByTestId("nav-open-cases");
  await expect(navCount).toHaveAttribute("data-count", "1");
  await expect(reviewer.getByRole("link", { name: "Inbox" })).toHaveAccessibleDescription("1 open case");
  await reviewer.getByRole("link", { name: "Inbox" }).click();
  await reviewer
    .getByTestId("case-row")
    .filter({ hasText: `Answer to: ${QUESTION}` })
    .click();
  await expect(reviewer).toHaveURL(new RegExp(`\\?case=${caseId}$`));

  // What was asked, by whom, when, of which agent; the answer with its citations; the sources.
  const detail = reviewer.getByTestId("case-detail");
  const context = detail.getByTestId("answer-context");
  await expect(context.getByTestId("context-question")).toHaveText(QUESTION);
  const asker = context.getByTestId("context-asker");
  await expect(asker).toContainText("Asked by Erin Expert");
  await expect(asker).toContainText(`to ${AGENT}`);
  await expect(asker.locator("time")).toHaveText(/ago$/);
  await expect(asker.locator("time")).toHaveAttribute("title", /\d/);
  const listed = context.getByTestId("context-source");
  await expect(listed).toHaveCount(sources.length);
  await expect(context.getByTestId("context-source-title")).toHaveText(sources.map((s) => s.title));
  const badges = context.getByTestId("context-answer").getByTestId("citation-badge");
  await expect(badges.first()).toBeVisible();
  // A citation takes the reviewer to the source it cites.
  const cited = Number(await badges.first().textContent());
  await badges.first().click();
  await expect(listed.nth(sources.findIndex((s) => s.n === cited))).toBeFocused();

  // The reviewer is not the asker: the session is named, not linked; the run links to its page.
  const refs = detail.getByTestId("case-refs");
  await expect(refs.locator('[data-ref-kind="chat_session"]')).toContainText(sessionId);
  await expect(refs.locator('[data-ref-kind="chat_session"]').getByRole("link")).toHaveCount(0);
  await expect(refs.locator('[data-ref-kind="run"]').getByRole("link")).toHaveAttribute(
    "href",
    /^\/runs\/[0-9a-f-]{36}$/,
  );

  // Modify and approve: a form with the answer only, prefilled; JSON behind "Advanced".
  await detail.getByRole("button", { name: "Modify and approve…" }).click();
  const form = detail.getByTestId("modify-form");
  await expect(form.getByRole("textbox")).toHaveCount(1);
  const editor = form.getByLabel("Response text");
  await expect(editor).toHaveValue(stored.case.payload.response_text);
  await form.getByLabel("Advanced: edit JSON").check();
  await expect(form.getByLabel(/Payload with your changes/)).toHaveValue(/"response_confidence"/);
  await form.getByLabel("Advanced: edit JSON").uncheck();
  await editor.fill("");
  await form.getByRole("button", { name: "Approve with changes" }).click();
  await expect(form.locator(".error-detail")).not.toHaveCount(0);
  await editor.fill(EDITED);
  await form.getByRole("button", { name: "Approve with changes" }).click();

  const decision = detail.getByTestId("case-decision");
  await expect(decision).toContainText("Approved by Riley Reviewer at");
  await expect(decision).toContainText("(with changes)");
  // Nothing is left open: the count goes away.
  await expect(navCount).toHaveCount(0);
  const after = (await apiAt(BASE, reviewerCookie, `/api/hitl/cases/${caseId}`)).body as unknown as CaseBody;
  const recorded = after.history.filter((e) => e.type === "decision_recorded");
  expect(recorded).toHaveLength(1);
  expect(recorded[0].modifications).toEqual({ response_text: EDITED });

  // The asker reading the same case may open their conversation from it.
  await member.goto(`/inbox?case=${caseId}`);
  const askerRefs = member.getByTestId("case-detail").getByTestId("case-refs");
  const link = askerRefs.getByRole("link", { name: sessionId });
  await expect(link).toHaveAttribute("href", `/chat/${sessionId}`);
  await link.click();
  await expect(member).toHaveURL(new RegExp(`/chat/${sessionId}$`));
});

test("a chat answer's case reads and is rejected with a reason on a 390 px wide phone", async ({ browser }) => {
  test.setTimeout(180_000);
  const member = await pageFor(browser, "expert@demo.local");
  await ask(member, PHONE_QUESTION);
  const reviewerCookie = await signInAt(BASE, "reviewer@demo.local");
  const { case: kase } = await caseOfQuestion(reviewerCookie, PHONE_QUESTION);

  const phone = await pageFor(browser, "reviewer@demo.local", { width: 390, height: 844 });
  // On a phone the nav is in the header's menu.
  await phone.getByRole("button", { name: "Menu" }).click();
  const menu = phone.getByRole("dialog", { name: "Menu" });
  await expect(menu.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Inbox" })).toBeVisible();
  await phone.keyboard.press("Escape");
  await expect(menu).toBeHidden();
  await phone.goto(`/inbox?case=${kase.id}`);
  const detail = phone.getByTestId("case-detail");
  await expect(detail.getByTestId("context-question")).toHaveText(PHONE_QUESTION);
  await expect(detail.getByTestId("context-source").first()).toBeVisible();
  await detail.getByRole("button", { name: "Modify and approve…" }).click();
  await expect(detail.getByTestId("modify-form").getByLabel("Response text")).toBeVisible();

  // Nothing is wider than the screen.
  const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  for (const testId of ["answer-context", "modify-form", "case-refs"]) {
    const box = await detail.getByTestId(testId).boundingBox();
    expect(box, testId).not.toBeNull();
    expect((box?.x ?? 0) + (box?.width ?? 0), testId).toBeLessThanOrEqual(390);
  }

  // A rejection goes at once, with its reason.
  await detail.getByLabel("Notes (recorded with the decision)").fill("The answer cites the wrong guideline.");
  await detail.getByRole("button", { name: /^Reject/ }).click();
  await expect(detail.getByTestId("case-decision")).toContainText("Rejected by Riley Reviewer at");
  await expect(detail.getByTestId("case-decision")).toContainText("The answer cites the wrong guideline.");
  // The pages' event streams end with them, before the spec's server is stopped.
  await member.context().close();
  await phone.context().close();
});
