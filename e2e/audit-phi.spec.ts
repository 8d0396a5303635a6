import { type Browser, expect, type Page, test } from "./fixtures";
import { signIn } from "./support";

// PHI in the browser: an admin marks a knowledge document as PHI, an expert asks a question the
// document answers, and the admin finds that access on /audit/phi and its session on
// /audit/sessions (also on a phone, without horizontal scrolling).

const TITLE = "Vexmora hepatic case report";
const TEXT = `# ${TITLE}\n\nPatient Orlaith Brenwick, born 1958, developed jaundice on day 9 of Vexmora dosing; Vexmora was stopped.`;
const QUESTION = "What happened to Orlaith Brenwick on Vexmora dosing?";

async function expectNoHorizontalOverflow(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

async function signedInPage(browser: Browser, email: string, phone = false): Promise<Page> {
  const context = await browser.newContext(
    phone ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } : {},
  );
  const page = await context.newPage();
  await signIn(page, email);
  return page;
}

test("an admin marks a document PHI and sees an expert's access to it and its session", async ({ page, browser }) => {
  test.setTimeout(120_000);
  await signIn(page, "admin@demo.local");
  const uploaded = await page.request.post("/api/knowledge/documents", {
    data: { title: TITLE, text: TEXT, format: "markdown", domains: ["regulatory"] },
  });
  expect(uploaded.status(), await uploaded.text()).toBe(201);
  const documentId = (await uploaded.json()).document.id as string;

  // The admin reclassifies it in the document viewer, by keyboard.
  await page.goto(`/knowledge/${documentId}`);
  const select = page.getByTestId("document-classification-select");
  await expect(select).toHaveValue("public");
  await select.selectOption("phi");
  await expect(page.getByText(`“${TITLE}” is now PHI (patient data).`)).toBeVisible();
  await page.reload();
  await expect(page.getByTestId("document-classification-select")).toHaveValue("phi");

  // An expert asks a question the document answers.
  const expert = await signedInPage(browser, "expert@demo.local");
  const asked = await expert.request.post("/api/chat", { data: { agentId: "fda-regulatory", message: QUESTION } });
  expect(asked.status()).toBe(200);
  expect(await asked.text()).toContain(documentId);
  const runId = asked.headers()["x-vigil-run-id"];
  expect(runId).toMatch(/^[0-9a-f-]{36}$/);
  await expert.context().close();

  // The access is on /audit/phi, naming the document, with a link to its run.
  await page.goto("/audit/phi");
  await expect(page.getByRole("link", { name: "PHI access" })).toHaveAttribute("aria-current", "page");
  const row = page.getByTestId("phi-access-row").filter({ hasText: TITLE });
  await expect(async () => {
    await page.reload();
    await expect(row).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await expect(row).toContainText("rag_retrieval");
  await expect(row).toContainText("session: PHI");
  await row.getByRole("link", { name: "its run" }).click();
  await expect(page).toHaveURL(new RegExp(`/audit/runs/${runId}$`));

  // Its session is on /audit/sessions, filtered to sessions that touched PHI.
  await page.goto("/audit/sessions");
  await page.getByLabel("Touched PHI").selectOption("true");
  await page.getByRole("button", { name: "Apply" }).click();
  const session = page.getByTestId("audit-session-row").first();
  await expect(session).toContainText("PHI accesses");
  await expect(session.getByText("PHI", { exact: true })).toBeVisible();
  await session.getByRole("button", { name: /Show its/ }).click();
  await expect(session.getByRole("link", { name: /fda|run|Vexmora|Orlaith/i }).first()).toBeVisible();

  // The same pages on a phone.
  const phone = await signedInPage(browser, "admin@demo.local", true);
  for (const path of ["/audit/phi", "/audit/sessions"]) {
    await phone.goto(path);
    await expect(phone.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(phone.locator("[data-testid=phi-access-row], [data-testid=audit-session-row]").first()).toBeVisible();
    await expectNoHorizontalOverflow(phone);
  }
  await phone.context().close();
});

test("a member gets the 403 page and 403 answers from the PHI and sessions views", async ({ page }) => {
  await signIn(page, "expert@demo.local");
  for (const path of ["/audit/phi", "/audit/sessions"]) {
    const res = await page.goto(path);
    expect(res?.status()).toBe(403);
  }
  for (const path of ["/api/audit/phi", "/api/audit/sessions"]) {
    expect((await page.request.get(path)).status()).toBe(403);
  }
});
