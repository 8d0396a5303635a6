import { randomUUID } from "node:crypto";
import { expect, type Page, test } from "./fixtures";
import { specServerPort } from "./ports";
import { api as apiAt, reviewingServer, signInAt } from "./server-process";
import { PASSWORD } from "./support";

// The asker's side of a review, in the browser: every answer of this server goes to review
// (VIGIL_REVIEW_CONFIDENCE=0.999), a reviewer acts through the API, and the open chat shows each
// step without a reload — the reviewer's question (answered from the chat), the edited answer,
// a rejection and its reason.

const PORT = specServerPort(3);
const BASE = `http://127.0.0.1:${PORT}`;
const DATA_DIR = ".data/e2e-review-loop";
const AGENT = "Clinical Trial Designer";

reviewingServer(PORT, DATA_DIR);

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

/** The case reviewing the session's latest answer, as the asker's reviews endpoint names it. */
async function latestCase(page: Page, sessionId: string): Promise<string> {
  const res = await page.request.get(`${BASE}/api/chat/sessions/${sessionId}/reviews`);
  const { items } = (await res.json()) as { items: { caseId: string }[] };
  return items[items.length - 1].caseId;
}

test("the asker sees the reviewer's question, answers it in the chat, and sees the edited answer and a rejection live", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const reviewer = await signInAt(BASE, "reviewer@demo.local");
  const decide = (caseId: string, body: Record<string, unknown>) =>
    apiAt(BASE, reviewer, `/api/hitl/cases/${caseId}/decision`, { request_id: randomUUID(), ...body });

  await signIn(page, "expert@demo.local");
  await page.goto(`${BASE}/chat/new?agent=clinical-trial-designer`);
  await ask(page, "How does randomisation work in clinical trials?");
  await expect(page).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
  const sessionId = new URL(page.url()).pathname.split("/").pop() as string;
  const badge = page.getByTestId("review-badge").last();
  await expect(badge).toHaveText("Sent for review");
  const caseId = await latestCase(page, sessionId);

  // The reviewer asks; the question appears under the answer, and the asker answers it there.
  const asked = await apiAt(BASE, reviewer, `/api/hitl/cases/${caseId}/clarification-request`, {
    request_id: randomUUID(),
    question: "Which trial phase is this about?",
  });
  expect(asked.status).toBe(200);
  const question = page.getByTestId("review-question");
  await expect(question).toContainText("Which trial phase is this about?");
  await expect(badge).toHaveText("The reviewer has a question");
  await expect(page.getByTestId("nav-waiting-on-you")).toHaveAttribute("data-count", "1");
  await question.getByPlaceholder("Your answer to the reviewer").fill("Phase III, two arms.");
  await question.getByRole("button", { name: "Send answer" }).click();
  await expect(badge).toHaveText("Sent for review");
  await expect(question).toHaveCount(0);
  await expect(page.getByTestId("nav-waiting-on-you")).toHaveCount(0);
  const history = await apiAt(BASE, reviewer, `/api/hitl/cases/${caseId}`);
  expect((history.body.history as { answer: string | null }[]).some((e) => e.answer === "Phase III, two arms.")).toBe(
    true,
  );

  // The reviewer edits the answer and approves: the chat shows the new version, the original on demand.
  const edited = "Randomisation assigns each participant to an arm by chance, so the arms stay comparable.";
  expect((await decide(caseId, { decision: "approved", modifications: { response_text: edited } })).status).toBe(200);
  await expect(badge).toHaveText("Edited by a reviewer");
  await expect(page.getByTestId("answer").last()).toHaveText(edited);
  await page.getByText("The agent's original answer").click();
  // The original answer, with its citation markers.
  await expect(page.getByTestId("review-note")).toContainText("randomisation");
  await expect(page.getByTestId("review-note")).toContainText(/\[\d+\]/);

  // A second answer is rejected with a reason, shown with a way to ask again.
  await ask(page, "What is block randomisation?");
  await expect(page.getByTestId("review-badge")).toHaveCount(2);
  const second = await latestCase(page, sessionId);
  expect(second).not.toBe(caseId);
  expect((await decide(second, { decision: "rejected", notes: "Cites the wrong guideline." })).status).toBe(200);
  await expect(page.getByTestId("review-badge").last()).toHaveText("Rejected by a reviewer");
  await expect(page.getByTestId("review-note").last()).toContainText("Reason: Cites the wrong guideline.");
  await expect(page.getByRole("button", { name: "Ask again" })).toBeVisible();

  // My requests lists both reviews with their outcomes.
  await page.getByRole("link", { name: "My requests" }).click();
  await expect(page.getByRole("heading", { name: "My requests" })).toBeVisible();
  await expect(page.getByTestId("my-answer-review")).toHaveCount(2);
  await expect(page.getByTestId("my-answer-review").first()).toContainText("Rejected by a reviewer");
  await expect(page.getByTestId("my-answer-review").first()).toContainText("Reason: Cites the wrong guideline.");
  await page.goBack();

  // After a reload the conversation tells the same story.
  await page.reload();
  await expect(page.getByTestId("review-badge").first()).toHaveText("Edited by a reviewer");
  await expect(page.getByTestId("answer").first()).toHaveText(edited);
  await expect(page.getByTestId("review-badge").last()).toHaveText("Rejected by a reviewer");
});
