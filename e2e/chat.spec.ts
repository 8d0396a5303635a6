import { expect, type Page, test } from "./fixtures";
import { signIn } from "./support";

const AGENT = "FDA Regulatory Specialist";
const IN_CORPUS = "What is a 510(k) premarket notification?";
// No word of it occurs in the demo corpus (a question with "point" in it would match the user guide).
const ABSENT = "At what temperature does tungsten boil?";

async function ask(page: Page, question: string) {
  const composer = page.getByLabel(`Message ${AGENT}`);
  await composer.fill(question);
  await composer.press("Enter");
}

test("an expert asks the FDA agent, opens a cited passage, reloads, and gets an honest answer when the knowledge base has nothing", async ({
  page,
}) => {
  await signIn(page, "expert@demo.local");
  await page.getByTestId("expert-card").filter({ hasText: AGENT }).click();
  await expect(page).toHaveURL(/\/chat\/new\?agent=fda-regulatory/);
  await expect(page.getByRole("heading", { level: 1, name: new RegExp(AGENT) })).toBeVisible();
  await expect(page.getByTestId("offline-engine")).toBeVisible();

  // Shift+Enter makes a new line instead of sending.
  const composer = page.getByLabel(`Message ${AGENT}`);
  await composer.fill("draft");
  await composer.press("Shift+Enter");
  await expect(composer).toHaveValue("draft\n");

  await ask(page, IN_CORPUS);
  // The first question creates the session; the page becomes its address without losing the stream.
  await expect(page).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
  const sessionUrl = page.url();
  await expect(page.getByTestId("user-message")).toHaveText(IN_CORPUS);
  const answer = page.getByTestId("answer").last();
  await expect(answer).toContainText("510(k)");
  const badges = page.getByTestId("citation-badge");
  await expect(badges.first()).toBeVisible();
  await expect(page.getByTestId("confidence")).toHaveText(/^Confidence \d{1,3}%$/);

  // No dangling citation: every number in the answer opens a retrieved source.
  await expect(answer.locator("sup", { hasText: /^\[\d+\]$/ })).toHaveCount(0);
  // One badge per run of sentences from one source: within a paragraph, never `1 1`.
  for (const block of await answer.locator("p, li").all()) {
    const numbers = await block.getByTestId("citation-badge").allInnerTexts();
    for (let i = 1; i < numbers.length; i++)
      expect(numbers[i], `in "${await block.textContent()}"`).not.toBe(numbers[i - 1]);
  }
  const sources = page.getByTestId("sources-list").getByRole("listitem");
  expect(await sources.count()).toBeGreaterThan(0);

  // A citation opens its passage, the cited sentence highlighted.
  const first = badges.first();
  const label = (await first.getAttribute("aria-label")) ?? "";
  const title = label.replace(/^Source \d+: /, "");
  await first.click();
  const detail = page.getByTestId("source-detail");
  await expect(detail).toBeVisible();
  await expect(detail.getByRole("heading")).toHaveText(title);
  const highlighted = page.getByTestId("source-passage").locator("mark");
  await expect(highlighted.first()).toBeVisible();
  expect(((await highlighted.first().textContent()) ?? "").length).toBeGreaterThan(10);

  // What the agent did, in words: no node names, no engine dump.
  const sourceCount = await sources.count();
  const trail = page.getByTestId("progress-trail").last();
  await expect(trail).toHaveText(`Searched ${sourceCount} sources·Wrote answer`);
  await expect(page.getByText(/\d+ steps/)).toHaveCount(0);

  // The session shows in the sidebar.
  await expect(page.getByTestId("session-item").first()).toBeVisible();

  // Reload: the conversation comes back from the server, citations and all.
  await page.reload();
  await expect(page).toHaveURL(sessionUrl);
  await expect(page.getByTestId("user-message")).toHaveText(IN_CORPUS);
  await expect(page.getByTestId("answer").last()).toContainText("510(k)");
  await expect(page.getByTestId("progress-trail").last()).toHaveText(`Searched ${sourceCount} sources·Wrote answer`);
  await expect(page.getByTestId("citation-badge").first()).toBeVisible();
  await page.getByTestId("citation-badge").first().click();
  await expect(page.getByTestId("source-detail")).toBeVisible();

  // Something the knowledge base does not cover gets the honest answer, with no citation.
  await page.getByRole("link", { name: "New chat", exact: true }).click();
  await expect(page).toHaveURL(/\/chat\/new\?agent=fda-regulatory/);
  await ask(page, ABSENT);
  await expect(page).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
  const honest = page.getByTestId("answer").last();
  await expect(honest).toContainText("I found nothing in the knowledge base about");
  await expect(honest.getByTestId("citation-badge")).toHaveCount(0);
  expect(page.url()).not.toBe(sessionUrl);
  // Both conversations lead the sidebar, newest first (other specs may have left older ones).
  const links = page.getByTestId("session-item").getByRole("link");
  await expect(links.nth(0)).toHaveAttribute("href", new URL(page.url()).pathname);
  await expect(links.nth(1)).toHaveAttribute("href", new URL(sessionUrl).pathname);
});

async function startConversation(page: Page, question: string): Promise<string> {
  await page.goto("/chat/new?agent=fda-regulatory");
  await ask(page, question);
  await expect(page).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("confidence")).toBeVisible();
  return new URL(page.url()).pathname.split("/").pop() ?? "";
}

test("a conversation whose answer is still running re-attaches to the run's stream after a reload", async ({
  page,
}) => {
  await signIn(page, "expert@demo.local");
  const sessionId = await startConversation(page, "How long does FDA take to review a 510(k)?");
  const detail = await (await page.request.get(`/api/chat/sessions/${sessionId}`)).json();
  const runId: string = detail.messages.find((m: { role: string }) => m.role === "assistant").metadata.runId;
  expect(runId).toBeTruthy();

  // Present the session as if the answer were still being written: saved question, no saved answer.
  await page.route(`**/api/chat/sessions/${sessionId}`, async (route) => {
    try {
      const response = await route.fetch();
      const body = await response.json();
      body.messages = body.messages.filter((m: { role: string }) => m.role === "user");
      body.activeRun = { runId, status: "running" };
      await route.fulfill({ response, json: body });
    } catch {
      // a request of the page being reloaded, cancelled on the way
    }
  });
  const reattached = page.waitForRequest((req) => req.url().includes(`/api/runs/${runId}/stream`));
  await page.reload();
  await reattached;
  // The answer quotes the 510(k) document's review timeline.
  await expect(page.getByTestId("answer").last()).toContainText("90 FDA days");
  await expect(page.getByTestId("citation-badge").first()).toBeVisible();
  await expect(page.getByTestId("assistant-message")).toHaveCount(1);
});

test("conversations can be renamed and deleted from the sidebar", async ({ page }) => {
  await signIn(page, "expert@demo.local");
  const sessionId = await startConversation(page, "What is a De Novo classification request?");
  const item = page.getByTestId("session-item").filter({ has: page.locator(`a[href="/chat/${sessionId}"]`) });
  await item.hover();
  await item.getByRole("button", { name: /^Rename/ }).click();
  const title = page.getByLabel("Conversation title");
  await title.fill("De Novo notes");
  await title.press("Enter");
  await expect(page.getByTestId("session-item").filter({ hasText: "De Novo notes" })).toBeVisible();
  await expect(page.getByText("· De Novo notes")).toBeVisible();

  // A session cannot be deleted while its run is still finishing (409); wait until it is done.
  await expect
    .poll(async () => (await (await page.request.get(`/api/chat/sessions/${sessionId}`)).json()).activeRun)
    .toBeNull();
  const renamed = page.getByTestId("session-item").filter({ hasText: "De Novo notes" });
  await renamed.hover();
  await renamed.getByRole("button", { name: /^Delete/ }).click();
  await renamed.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(page).toHaveURL(/\/chat$/);
  await expect(page.getByTestId("session-item").filter({ hasText: "De Novo notes" })).toHaveCount(0);
  expect((await page.request.get(`/api/chat/sessions/${sessionId}`)).status()).toBe(404);
});

test("a refused question shows the server's message in a toast", async ({ page }) => {
  await signIn(page, "expert@demo.local");
  await page.goto("/chat/new?agent=fda-regulatory");
  await page.route("**/api/chat", (route) =>
    route.fulfill({
      status: 409,
      contentType: "application/json",
      body: JSON.stringify({
        status: "error",
        code: "ANSWER_IN_PROGRESS",
        message: "The agent is still answering in this conversation.",
      }),
    }),
  );
  await ask(page, "What is an IND?");
  await expect(page.getByText("The agent is still answering in this conversation.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Try again" })).toBeVisible();
});

test("an answer can be copied and asked again", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signIn(page, "expert@demo.local");
  await startConversation(page, "What must a premarket approval application contain?");
  const opening = ((await page.getByTestId("answer").last().textContent()) ?? "").trim().slice(0, 30);
  expect(opening.length).toBe(30);

  await page.getByRole("button", { name: "Copy answer" }).click();
  await expect(page.getByText("Answer copied")).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied.startsWith(opening)).toBe(true);
  expect(copied).toMatch(/\[\d+\]/); // the markdown, citations included

  await page.getByRole("button", { name: "Retry this answer" }).click();
  await expect(page.getByTestId("confidence")).toBeVisible();
  await expect(page.getByTestId("assistant-message")).toHaveCount(1);
  await expect(page.getByTestId("answer").last()).toContainText(/approv/i);
});

test("Esc stops an answer that is on its way", async ({ page }) => {
  await signIn(page, "expert@demo.local");
  await page.goto("/chat/new?agent=fda-regulatory");
  // Hold the request back so the answer is still pending when Esc is pressed.
  await page.route("**/api/chat", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    await route.continue().catch(() => undefined);
  });
  await ask(page, "What is an IND?");
  await expect(page.getByRole("button", { name: "Stop the answer" })).toBeVisible();
  await expect(page.getByTestId("thinking")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("button", { name: "Send message" })).toBeVisible();
  await expect(page.getByTestId("thinking")).toHaveCount(0);
  await expect(page.getByTestId("user-message")).toHaveText("What is an IND?");
});
