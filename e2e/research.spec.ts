import { readFile } from "node:fs/promises";
import { getDocumentProxy } from "unpdf";
import { expect, type Locator, type Page, test } from "./fixtures";
import { expectNoHorizontalOverflow, phonePage, signIn } from "./support";

// A deep-research run in the browser, on the demo tenant with the offline engine: a member starts
// it from /research, answers a clarification question, ends clarification, edits the plan (removes
// a task, moves one up, leaves a note), approves it, watches the tasks complete and reads the
// report — a citation opens its passage, a claim is verified, the quality adds up — and downloads
// it as Markdown and as PDF. The page fits a phone.

const QUESTION = "How quickly must serious adverse events and SUSARs be reported to the authorities?";
const REPLY = "Both the post-marketing rules and the clinical-trial rules in the European Union.";
const NOTE = "Keep the clinical-trial deadlines apart from the post-marketing ones.";

/** The plan editor's task texts, in their order. */
async function draftTasks(editor: Locator): Promise<string[]> {
  return editor
    .getByTestId("plan-task")
    .locator("textarea")
    .evaluateAll((els) => els.map((el) => (el as HTMLTextAreaElement).value));
}

/** Waits until the run asks a new round of questions (other than `after`) or has left clarification. */
async function nextClarification(page: Page, after: string | null): Promise<"asking" | "done"> {
  let result: "asking" | "done" = "done";
  await expect
    .poll(
      async () => {
        const view = page.getByTestId("research-view");
        const phase = await view.getAttribute("data-phase");
        if (phase && phase !== "clarify") {
          result = "done";
          return result;
        }
        const pending = page.getByTestId("clarify-pending");
        if ((await pending.count()) === 0) return "working";
        const iteration = await pending.getAttribute("data-iteration");
        if (iteration === after) return "working";
        result = "asking";
        return result;
      },
      { timeout: 60_000, intervals: [250] },
    )
    .not.toBe("working");
  return result;
}

test("a member researches a question from /research: clarification, an edited plan, live tasks, a cited report and its downloads", async ({
  page,
  browser,
}) => {
  test.setTimeout(300_000);
  await signIn(page, "expert@demo.local");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Research" }).click();
  await expect(page).toHaveURL(/\/research$/);
  await expect(page.getByRole("heading", { level: 1, name: "Research" })).toBeVisible();

  await page.getByLabel("Question", { exact: true }).fill(QUESTION);
  await page.getByLabel("Research agent").selectOption("research-analyst");
  await expect(page.getByLabel("Skip clarification")).not.toBeChecked();
  await page.getByRole("button", { name: "Start research" }).click();
  await expect(page).toHaveURL(/\/research\/[0-9a-f-]{36}$/);
  const researchUrl = page.url();
  const runId = researchUrl.split("/").pop() as string;
  await expect(page.getByTestId("research-query")).toHaveText(QUESTION);

  // Clarification: questions from the gaps, the passages found so far, and how much they cover.
  expect(await nextClarification(page, null)).toBe("asking");
  const pending = page.getByTestId("clarify-pending");
  const firstRound = await pending.getAttribute("data-iteration");
  expect(await pending.getByTestId("clarify-question").count()).toBeGreaterThanOrEqual(1);
  const meter = page.getByRole("meter", { name: "Coverage of your question" });
  await expect(meter).toHaveAttribute("aria-valuemin", "0");
  await expect(meter).toHaveAttribute("aria-valuemax", "100");
  const coverage = Number(await meter.getAttribute("aria-valuenow"));
  expect(coverage).toBeGreaterThanOrEqual(0);
  expect(coverage).toBeLessThanOrEqual(100);
  await expect(page.getByTestId("coverage-value")).toHaveText(`${coverage}%`);
  const found = page.getByTestId("found-passage");
  await expect(found.first()).toBeVisible();
  await expect(found.first()).not.toBeEmpty();

  // One answer, sent with Enter (Shift+Enter would only start a new line).
  const reply = page.getByLabel("Your answer");
  await reply.fill(REPLY);
  await reply.press("Enter");
  await expect(page.getByTestId("clarify-turn").filter({ hasText: REPLY })).toHaveAttribute("data-role", "user");

  // Then end it: at once, whatever the coverage (unless it converged by itself first).
  if ((await nextClarification(page, firstRound)) === "asking") {
    await page.getByRole("button", { name: "End clarification" }).click();
    await expect(page.getByTestId("termination-reason")).toHaveText("Ended: you ended it", { timeout: 30_000 });
  } else {
    await expect(page.getByTestId("termination-reason")).toContainText("Ended:");
  }

  // The plan checkpoint: 3–5 tasks; remove the second, move the last up, leave a note.
  const checkpoint = page.getByTestId("research-plan-checkpoint");
  await expect(checkpoint).toBeVisible({ timeout: 60_000 });
  const proposed = await checkpoint.getByTestId("proposed-tasks").getByRole("listitem").allTextContents();
  expect(proposed.length).toBeGreaterThanOrEqual(3);
  expect(proposed.length).toBeLessThanOrEqual(15);
  await checkpoint.getByRole("button", { name: "Approve with changes…" }).click();
  const editor = checkpoint.getByTestId("research-plan-editor");
  const original = await draftTasks(editor);
  expect(original).toEqual(proposed.map((t) => t.trim()));
  await editor
    .getByTestId("plan-task")
    .nth(1)
    .getByRole("button", { name: /^Remove:/ })
    .click();
  await editor
    .getByTestId("plan-task")
    .last()
    .getByRole("button", { name: /^Move up:/ })
    .click();
  const kept = [original[0], ...original.slice(2)];
  const expected = [...kept.slice(0, -2), kept[kept.length - 1], kept[kept.length - 2]];
  expect(await draftTasks(editor)).toEqual(expected);
  await editor.getByLabel(/^Notes for the analyst/).fill(NOTE);
  await editor.getByRole("button", { name: "Approve with changes" }).click();
  await expect(checkpoint).toBeHidden({ timeout: 30_000 });

  // The executed tasks are exactly the approved list, in its order, and each completes with its counts.
  const tasks = page.getByTestId("todo-task");
  await expect(tasks).toHaveCount(expected.length, { timeout: 30_000 });
  for (const [i, text] of expected.entries()) await expect(tasks.nth(i)).toContainText(text);
  await expect(page.getByTestId("tasks-done")).toHaveText(`${expected.length} of ${expected.length} done`, {
    timeout: 120_000,
  });
  for (const task of await tasks.all()) {
    await expect(task).toHaveAttribute("data-status", "done");
    await expect(task.getByTestId("todo-counts")).toContainText(
      /\d+ passages? found · \d+ quotes? kept · \d+ references? followed/,
    );
  }
  // The edit is a new version of the plan, by this member, with the note.
  const versions = page.getByTestId("plan-version");
  expect(await versions.count()).toBeGreaterThanOrEqual(2);
  await expect(versions.first()).toContainText("Erin Expert");
  await expect(versions.first()).toContainText(NOTE);
  await expect(versions.last()).toContainText("generated");

  // The report: in English, citations that open their passage, verified claims, the quality.
  await expect(page.getByTestId("research-view")).toHaveAttribute("data-run-status", "completed", { timeout: 120_000 });
  const report = page.getByTestId("research-report");
  await expect(report).toBeVisible();
  await expect(report).toHaveAttribute("lang", "en");
  await expect(page.getByTestId("research-answer").or(page.getByTestId("research-quotes")).first()).toContainText(
    /calendar days/,
  );
  const badge = page.getByTestId("research-answer").getByTestId("citation-badge").first();
  await expect(badge).toBeVisible();
  const n = ((await badge.textContent()) ?? "").trim();
  await badge.click();
  const source = page.locator(`[data-testid="research-source"][data-n="${n}"]`);
  await expect(source).toHaveAttribute("data-open", "true");
  await expect(source.getByTestId("source-place")).not.toBeEmpty();
  await expect(source.getByTestId("source-passage")).toBeVisible();
  const documentName = ((await source.getByRole("button").textContent()) ?? "")
    .replace(/^\[\d+\]\s*/, "")
    .replace(/\s*\(\w+\)$/, "");
  await expect(source.getByTestId("source-place")).toContainText(documentName);
  await expect(page.locator('[data-testid="report-claim"][data-verified="true"]').first()).toBeVisible();
  await expect(page.getByTestId("claims-summary")).toContainText(/^[1-9]\d* of \d+ claims verified/);
  const dimensions = page.getByTestId("quality-dimension");
  await expect(dimensions).toHaveCount(4);
  const scores = (await dimensions.locator("dd").allTextContents()).map((s) => Number(s.replace("/100", "")));
  for (const s of scores) expect(s).toBeGreaterThanOrEqual(0);
  expect(Number(await page.getByTestId("quality-total").textContent())).toBe(scores.reduce((a, b) => a + b, 0));

  // The downloads: the report as Markdown and as a real PDF.
  const [markdown] = await Promise.all([page.waitForEvent("download"), page.getByTestId("download-markdown").click()]);
  expect(markdown.suggestedFilename()).toBe(`research-report-${runId.slice(0, 8)}.md`);
  const md = await readFile((await markdown.path()) as string, "utf8");
  expect(md.split("\n")[0]).toBe(`# Research report: ${QUESTION}`);
  for (const heading of [
    "## Answer",
    "## Findings",
    "## Quotes",
    "## Sources",
    "## Quality",
    "## Claims and their verification",
  ]) {
    expect(md).toContain(heading);
  }
  expect(md).toMatch(/\| \*\*Total\*\* \| \*\*\d+\/400\*\* \|/);
  expect(md).toContain(`${n}. ${documentName}`);
  expect(md).toContain("✓ verified");

  const [pdf] = await Promise.all([page.waitForEvent("download"), page.getByTestId("download-pdf").click()]);
  expect(pdf.suggestedFilename()).toBe(`research-report-${runId.slice(0, 8)}.pdf`);
  const bytes = await readFile((await pdf.path()) as string);
  expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  const doc = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
  let text = "";
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    text += ` ${content.items.map((item) => ("str" in item ? item.str : "")).join(" ")}`;
  }
  text = text.replace(/\s+/g, " ");
  expect(text).toContain(`Research report: ${QUESTION}`);
  expect(text).toContain("Sources");
  expect(text).toMatch(/Total: \d+\/400/);

  // Another tenant's member cannot export it.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await signIn(otherPage, "expert@acme.local");
  const refused = await otherPage.request.get(`/api/runs/${runId}/report?format=markdown`);
  expect(refused.status()).toBe(404);
  await other.close();

  // On a phone the report fits without scrolling sideways.
  const phone = await phonePage(browser, page);
  await phone.goto(researchUrl);
  await expect(phone.getByTestId("research-report")).toBeVisible();
  await expectNoHorizontalOverflow(phone);
  await phone.context().close();
});
