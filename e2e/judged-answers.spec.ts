import judged from "../tests/fixtures/judged-questions.json" with { type: "json" };
import { expect, type Page, test } from "./fixtures";
import { signIn } from "./support";

// A few questions of the judged set (tests/fixtures/judged-questions.json), asked through the
// chat page of the production build: the citations must name a document that answers.

// The titles the demo corpus gives the answering documents (its first heading).
const TITLES: Record<string, string> = {
  "fda-orphan-designation": "Orphan drug designation",
  "psur-pbrer": "Periodic safety reports: PSUR and PBRER",
  "guide-api-keys": "Vigil guide: API keys",
};

function judgedQuestion(question: string) {
  const found = judged.questions.find((q) => q.question === question);
  if (!found) throw new Error(`"${question}" is not in the judged set`);
  return found;
}

async function ask(page: Page, agent: string, question: string) {
  await page.goto(`/chat/new?agent=${agent}`);
  const composer = page.getByRole("textbox", { name: /^Message / });
  await composer.fill(question);
  await composer.press("Enter");
  await expect(page).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("confidence")).toBeVisible();
  return page.getByTestId("answer").last();
}

/** The document titles the answer's citation badges name. */
async function citedTitles(page: Page): Promise<string[]> {
  const labels = await page
    .getByTestId("citation-badge")
    .evaluateAll((badges) => badges.map((b) => b.getAttribute("aria-label") ?? ""));
  return [...new Set(labels.map((label) => label.replace(/^Source \d+: /, "")))];
}

test.beforeEach(async ({ page }) => {
  await signIn(page, "expert@demo.local");
});

for (const question of ["What are the benefits of orphan designation?", "How do I create an API key in Vigil?"]) {
  test(`"${question}" is answered from the document that answers it`, async ({ page }) => {
    const q = judgedQuestion(question);
    const answer = await ask(page, q.agent, q.question);
    await expect(answer.getByTestId("citation-badge").first()).toBeVisible();
    const titles = await citedTitles(page);
    expect(titles.length).toBeGreaterThan(0);
    expect(q.answers.map((slug) => TITLES[slug])).toEqual(expect.arrayContaining(titles));
    if (q.answers.includes("fda-orphan-designation")) {
      await expect(answer).toContainText("market exclusivity");
      await expect(answer).not.toContainText("accelerated approval");
    }
  });
}

test("the pharmacovigilance expert answers a PBRER question from its own domain, never the user guide", async ({
  page,
}) => {
  const q = judgedQuestion("What goes into a PBRER?");
  expect(q.agent).toBe("pharmacovigilance");
  const answer = await ask(page, q.agent, q.question);
  await expect(answer.getByTestId("citation-badge").first()).toBeVisible();
  expect(await citedTitles(page)).toEqual([TITLES["psur-pbrer"]]);
  // The guide was not even searched: no source of the list comes from it.
  const sources = page.getByTestId("sources-list").getByRole("button");
  await expect(sources.first()).toBeVisible();
  for (const label of await sources.evaluateAll((b) => b.map((x) => x.getAttribute("aria-label") ?? "")))
    expect(label).not.toContain("Vigil guide");
});

test("an unanswerable question gets the honest reply, with no citation", async ({ page }) => {
  const q = judgedQuestion("What does Japan's PMDA require in a new drug application?");
  expect(q.answers).toEqual([]);
  const answer = await ask(page, q.agent, q.question);
  await expect(answer).toContainText("I found nothing in the knowledge base about");
  await expect(answer.getByTestId("citation-badge")).toHaveCount(0);
  await expect(page.getByTestId("confidence")).toHaveText("Confidence 0%");
});
