import { randomUUID } from "node:crypto";
import { expect, type Page, test } from "./fixtures";
import { api, signInAt } from "./server-process";
import { signIn } from "./support";

// The chat's everyday polish on the production build: suggested questions from the agent's
// knowledge, message times, long messages folded, the sidebar's date groups and title search,
// and a markdown table (with a citation in a cell) rendered from a stored answer.

const AGENT = "FDA Regulatory Specialist";
const DAY_MS = 86_400_000;

async function ask(page: Page, agent: string, question: string) {
  const composer = page.getByLabel(`Message ${agent}`);
  await composer.fill(question);
  await composer.press("Enter");
}

test("a suggested question is asked with the keyboard and answered, with its time shown and kept after a reload", async ({
  page,
}) => {
  await signIn(page, "expert@demo.local");
  await page.goto("/chat/new?agent=fda-regulatory");
  const suggestions = page.getByTestId("suggested-questions").getByRole("button");
  const count = await suggestions.count();
  expect(count).toBeGreaterThanOrEqual(3);
  expect(count).toBeLessThanOrEqual(4);
  // Each one is a question a person asks (not a "What does <title> say about <section>?" template);
  // tests/chat/polish.test.ts checks each is answered from the document it came from.
  for (const text of await suggestions.allTextContents()) {
    expect(text).toMatch(/^(What|Which|How|When|Why|Who|Can|Does|Is|Are)\b.+\?$/);
    expect(text).not.toMatch(/ say about |key points of/);
  }

  const first = suggestions.first();
  const question = (await first.textContent()) ?? "";
  await first.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("user-message")).toHaveText(question);
  await expect(page.getByTestId("answer").last().getByTestId("citation-badge").first()).toBeVisible();
  await expect(page.getByTestId("suggested-questions")).toHaveCount(0);

  // Times: relative today, the full timestamp on hover, a machine-readable dateTime.
  const times = page.getByTestId("message-time");
  await expect(times).toHaveCount(2);
  await expect(times.first()).toHaveText("just now");
  const sent = Date.parse((await times.first().getAttribute("datetime")) ?? "");
  expect(Math.abs(Date.now() - sent)).toBeLessThan(120_000);
  await expect(times.first()).toHaveAttribute("title", /\d{4}/);

  // After a reload the times are the stored ones.
  await page.reload();
  await expect(page.getByTestId("message-time")).toHaveCount(2);
  const stored = Date.parse((await page.getByTestId("message-time").first().getAttribute("datetime")) ?? "");
  expect(Math.abs(stored - sent)).toBeLessThan(60_000);
  await expect(page.getByTestId("message-time").last()).toHaveText(/^(just now|\d+ min ago)$/);
});

test("a long message folds behind Show more and unfolds again", async ({ page }) => {
  await signIn(page, "expert@demo.local");
  await page.goto("/chat/new?agent=fda-regulatory");
  const lines = Array.from({ length: 40 }, (_, i) => `Line ${i + 1} of the pasted 510(k) comparison notes.`);
  await ask(page, AGENT, `Please check these notes:\n${lines.join("\n")}`);
  // Once the conversation has its address and its answer, the page is settled.
  await expect(page).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("confidence")).toBeVisible();
  const bubble = page.getByTestId("user-message");
  await expect(bubble).toContainText("Line 40 of the pasted");
  const toggle = bubble.getByRole("button", { name: "Show more" });
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  const folded = (await bubble.boundingBox())?.height ?? 0;
  // About twenty of the 41 lines are shown: as much again is clipped away below them.
  const fold = bubble.locator("[data-folded]");
  const { hidden, shown } = await fold.evaluate((el) => ({
    hidden: el.scrollHeight - el.clientHeight,
    shown: el.clientHeight,
  }));
  expect(hidden).toBeGreaterThan(shown * 0.5);
  await toggle.click();
  const less = bubble.getByRole("button", { name: "Show less" });
  await expect(less).toHaveAttribute("aria-expanded", "true");
  expect((await bubble.boundingBox())?.height ?? 0).toBeGreaterThan(folded * 1.5);
  await less.click();
  await expect(bubble.getByRole("button", { name: "Show more" })).toHaveAttribute("aria-expanded", "false");
  // The session's title is the first line, not the paste.
  const title = page.getByTestId("session-title").filter({ hasText: "Please check these notes" });
  await expect(title).toHaveText("Please check these notes");
  await expect(title).toHaveAttribute("title", "Please check these notes");
});

test("the sidebar groups conversations by last activity and searches their titles", async ({ page }) => {
  await signIn(page, "expert@demo.local");
  const cookie = await signInAt(new URL(page.url()).origin, "expert@demo.local");
  const origin = new URL(page.url()).origin;
  // Two conversations of this person, started through the API.
  const tag = randomUUID().slice(0, 8);
  const questions = [`What is a De Novo request ${tag}?`, `How long does a PMA review take ${tag}?`];
  for (const message of questions) {
    const res = await fetch(`${origin}/api/chat`, {
      method: "POST",
      headers: { cookie, "content-type": "application/json" },
      body: JSON.stringify({ agentId: "fda-regulatory", message }),
    });
    expect(res.status).toBe(200);
    await res.text();
  }

  await page.goto("/chat/new?agent=fda-regulatory");
  const sidebar = page.getByRole("navigation", { name: "Conversations" });
  const today = sidebar.getByRole("region", { name: "Today" });
  await expect(today.getByTestId("session-item").filter({ hasText: tag })).toHaveCount(2);

  // Search: only matching titles, every word; nothing found says so; clearing brings all back.
  const search = sidebar.getByLabel("Search conversations");
  await search.fill(`PMA ${tag}`);
  await expect(sidebar.getByTestId("session-item")).toHaveCount(1);
  await expect(sidebar.getByTestId("session-item")).toContainText(`How long does a PMA review take ${tag}`);
  await search.fill(`nothing-like-this-${tag}`);
  await expect(sidebar.getByTestId("session-list-empty")).toHaveText(
    `No conversation title matches “nothing-like-this-${tag}”.`,
  );
  await sidebar.getByRole("button", { name: "Clear the search" }).click();
  await expect(sidebar.getByTestId("session-item").filter({ hasText: tag })).toHaveCount(2);

  // Three days later the same conversations are under "Previous 7 days", and a month later "Older".
  await page.clock.setFixedTime(new Date(Date.now() + 3 * DAY_MS));
  await page.reload();
  await expect(
    sidebar.getByRole("region", { name: "Previous 7 days" }).getByTestId("session-item").filter({ hasText: tag }),
  ).toHaveCount(2);
  await expect(sidebar.getByRole("region", { name: "Today" })).toHaveCount(0);
  await page.clock.setFixedTime(new Date(Date.now() + 40 * DAY_MS));
  await page.reload();
  await expect(
    sidebar.getByRole("region", { name: "Older" }).getByTestId("session-item").filter({ hasText: tag }),
  ).toHaveCount(2);
});

test("a stored answer with a markdown table and a list renders them, a citation in a cell included", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signIn(page, "expert@demo.local");
  const origin = new URL(page.url()).origin;
  const member = await signInAt(origin, "expert@demo.local");
  const reviewer = await signInAt(origin, "reviewer@demo.local");

  // An autonomous run started from the chat leaves its final answer in the session; the
  // reviewer's edit of that answer, written as a table and a list, is what the chat stores.
  const res = await fetch(`${origin}/api/chat`, {
    method: "POST",
    headers: { cookie: member, "content-type": "application/json" },
    body: JSON.stringify({
      agentId: "clinical-trial-designer",
      message: "Compare parallel-group and crossover designs for a trial",
      mode: "autonomous",
      safetyLevel: "balanced",
    }),
  });
  expect(res.status).toBe(200);
  const sessionId = res.headers.get("x-vigil-session-id") as string;
  const runId = res.headers.get("x-vigil-run-id") as string;
  await res.text();

  const TABLE = [
    "| Design | When it fits |",
    "| --- | --- |",
    "| Parallel group | Most confirmatory trials [1] |",
    "| Crossover | Stable, chronic conditions |",
    "",
    "Before choosing:",
    "",
    "1. Check the disease is stable.",
    "2. Plan a washout period.",
  ].join("\n");
  let finalReviews = 0;
  for (let i = 0; i < 120; i++) {
    const { body } = await api(origin, member, `/api/runs/${runId}`);
    const run = body.run as { status: string; waitingOn: { caseId: string; type: string } | null };
    if (run.status === "completed") break;
    expect(["running", "interrupted"]).toContain(run.status);
    if (run.status === "interrupted" && run.waitingOn) {
      const final = run.waitingOn.type === "final_review";
      if (final) finalReviews++;
      const decided = await api(origin, reviewer, `/api/hitl/cases/${run.waitingOn.caseId}/decision`, {
        request_id: randomUUID(),
        decision: "approved",
        ...(final ? { modifications: { response_text: TABLE } } : {}),
      });
      expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  expect(finalReviews).toBe(1);

  await page.goto(`/chat/${sessionId}`);
  const answer = page.getByTestId("answer").last();
  const table = answer.locator("table");
  await expect(table).toBeVisible();
  await expect(table.locator("th")).toHaveText(["Design", "When it fits"]);
  await expect(table.locator("tbody tr")).toHaveCount(2);
  await expect(answer.locator("ol > li")).toHaveText(["Check the disease is stable.", "Plan a washout period."]);
  // The cell's citation is a badge that opens its passage.
  const badge = table.locator("td").getByTestId("citation-badge");
  await expect(badge).toHaveText("1");
  await badge.click();
  await expect(page.getByTestId("source-detail")).toBeVisible();
  // The table has a border and scrolls inside its own frame on a phone, not the page.
  const border = await table
    .locator("td")
    .first()
    .evaluate((td) => getComputedStyle(td).borderTopWidth);
  expect(border).toBe("1px");
  await page.setViewportSize({ width: 390, height: 844 });
  const frame = table.locator("xpath=..");
  const overflow = await frame.evaluate((el) => getComputedStyle(el).overflowX);
  expect(overflow).toBe("auto");
  const width = await frame.evaluate((el) => el.getBoundingClientRect().right);
  expect(width).toBeLessThanOrEqual(390);
});
