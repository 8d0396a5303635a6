import { expect, type Page, test } from "./fixtures";
import { specServerPort } from "./ports";
import { api as apiAt, reviewingServer, signInAt } from "./server-process";
import { PASSWORD } from "./support";

// Streaming and Stop in the browser, on a server whose offline engine pauses after each
// sentence (VIGIL_OFFLINE_PACE_MS) and where every finished answer would go to review.

const PORT = specServerPort(5);
const BASE = `http://127.0.0.1:${PORT}`;
const AGENT = "FDA Regulatory Specialist";
// Long enough that Stop, pressed once the first sentence shows, lands before a short answer's
// second sentence (a two-sentence answer at 700 ms had finished first).
const PACE_MS = 2_500;

reviewingServer(PORT, ".data/e2e-stop", { VIGIL_OFFLINE_PACE_MS: String(PACE_MS) });
// A whole paced answer is 2.5 s per cited sentence by design (a long one, half a minute), after a
// sign-in that a loaded machine can make slow: the default minute left no margin.
test.describe.configure({ timeout: 180_000 });

async function signIn(page: Page, email: string) {
  await page.goto(`${BASE}/sign-in`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/experts$/);
}

async function ask(page: Page, question: string) {
  const composer = page.getByLabel(`Message ${AGENT}`);
  await composer.fill(question);
  await composer.press("Enter");
}

test("an answer appears sentence by sentence, and the URL is the session's from its first words", async ({ page }) => {
  await signIn(page, "expert@demo.local");
  await page.goto(`${BASE}/chat/new?agent=fda-regulatory`);
  // Every change of the answer's text is recorded in the page as it happens, with the address at
  // that moment: reading the text from the test instead could miss a piece on a slow machine.
  await page.evaluate(() => {
    const seen: { length: number; path: string }[] = [];
    (window as unknown as { __answerSeen: typeof seen }).__answerSeen = seen;
    new MutationObserver(() => {
      const answers = document.querySelectorAll('[data-testid="answer"]');
      const length = (answers[answers.length - 1]?.textContent ?? "").length;
      if (length > 0 && length !== seen.at(-1)?.length) seen.push({ length, path: location.pathname });
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
  await ask(page, "What does a 510(k) premarket notification need to show?");
  const answer = page.getByTestId("answer").last();
  await expect(answer).not.toBeEmpty();
  // The first words are in, the answer is still being written, and the page is already the session's.
  await expect(page.getByRole("button", { name: "Stop the answer" })).toBeVisible();
  await expect(page).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("confidence")).toBeVisible({ timeout: 120_000 });
  const final = ((await answer.textContent()) ?? "").length;
  const seen = await page.evaluate(
    () => (window as unknown as { __answerSeen: { length: number; path: string }[] }).__answerSeen,
  );
  const partial = seen.filter((s) => s.length < final);
  expect(partial.length, JSON.stringify(seen)).toBeGreaterThan(0);
  expect(
    partial.some((s) => /^\/chat\/[0-9a-f-]{36}$/.test(s.path)),
    JSON.stringify(seen),
  ).toBe(true);
});

test("Stop ends the answer on the server: the partial answer stays, marked stopped, and goes to no reviewer", async ({
  page,
}) => {
  await signIn(page, "expert@demo.local");
  await page.goto(`${BASE}/chat/new?agent=fda-regulatory`);
  await ask(page, "What is accelerated approval and when can it be used?");
  const answer = page.getByTestId("answer").last();
  await expect(answer).not.toBeEmpty();
  await expect(page).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
  const sessionId = page.url().split("/").at(-1) as string;
  await page.keyboard.press("Escape");
  await expect(page.getByRole("button", { name: "Send message" })).toBeVisible();
  await expect(page.getByTestId("stopped")).toHaveText("You stopped this answer here.");
  const shown = ((await answer.textContent()) ?? "").trim();
  expect(shown.length).toBeGreaterThan(0);
  await expect(page.getByTestId("confidence")).toHaveCount(0);

  // A reload shows the same: the question, the partial answer, the mark.
  await page.reload();
  await expect(page.getByTestId("user-message")).toHaveText("What is accelerated approval and when can it be used?");
  await expect(page.getByTestId("stopped")).toBeVisible();
  await expect(page.getByTestId("answer").last()).not.toBeEmpty();

  // The server stopped too: the run was cancelled, and no reviewer was asked about this answer.
  const cookie = await signInAt(BASE, "expert@demo.local");
  const session = await apiAt(BASE, cookie, `/api/chat/sessions/${sessionId}`);
  const messages = session.body.messages as { role: string; content: string; metadata: Record<string, unknown> }[];
  expect(messages.map((m) => m.role)).toEqual(["user", "assistant"]);
  expect(messages[1].metadata.stopped).toBe(true);
  expect(session.body.activeRun).toBeNull();
  const runId = messages[1].metadata.runId as string;
  const run = await apiAt(BASE, cookie, `/api/runs/${runId}`);
  expect((run.body.run as { status: string }).status).toBe("cancelled");
  // Long enough for the answer to have finished and gone to review had it not been stopped.
  await page.waitForTimeout(8 * PACE_MS);
  const reviews = await apiAt(BASE, cookie, `/api/chat/sessions/${sessionId}/reviews`);
  expect(reviews.body.items).toEqual([]);
});

test("Stop before the first words leaves a stopped answer, after a reload too, and no answer appears later", async ({
  page,
}) => {
  await signIn(page, "expert@demo.local");
  await page.goto(`${BASE}/chat/new?agent=fda-regulatory`);
  await ask(page, "What does FDA expect in a De Novo request?");
  // Stop as soon as the answer is being written: the engine pauses 2.5 s before its first words.
  await expect(page.getByRole("button", { name: "Stop the answer" })).toBeVisible();
  await page.getByRole("button", { name: "Stop the answer" }).click();
  await expect(page.getByTestId("stopped")).toHaveText("You stopped this answer before it began.");
  await expect(page).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
  const sessionId = page.url().split("/").at(-1) as string;

  // Long enough for the whole answer to have been written had the server not stopped it.
  await page.waitForTimeout(4 * PACE_MS);
  await page.reload();
  await expect(page.getByTestId("user-message")).toHaveText("What does FDA expect in a De Novo request?");
  await expect(page.getByTestId("stopped")).toHaveText("You stopped this answer before it began.");
  const cookie = await signInAt(BASE, "expert@demo.local");
  const session = await apiAt(BASE, cookie, `/api/chat/sessions/${sessionId}`);
  const messages = session.body.messages as { role: string; content: string; metadata: Record<string, unknown> }[];
  expect(messages.map((m) => m.role)).toEqual(["user", "assistant"]);
  expect(messages[1]).toMatchObject({ content: "", metadata: { stopped: true } });
});
