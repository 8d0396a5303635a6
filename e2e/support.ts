import { randomUUID } from "node:crypto";
import { type Browser, expect, type Locator, type Page, request } from "@playwright/test";

export const PASSWORD = "vigil-demo";

/**
 * Signs the page's browser in through the API the sign-in form posts to, then opens "/", which
 * sends each role where it starts. Most specs need a signed-in browser, not the form: the form
 * costs a page load and its hydration per sign-in. `page.request` shares the page's cookie jar,
 * so the session cookie lands in the browser exactly as the form's request leaves it.
 */
export async function signIn(page: Page, email: string) {
  const res = await page.request.post("/api/session", { data: { email, password: PASSWORD } });
  expect(res.status(), await res.text()).toBe(200);
  // Done once the landing page's address is committed, as the form's sign-in is done once the
  // address changes: what a spec does next waits for what it needs of the page.
  await page.goto("/", { waitUntil: "commit" });
  // Members start with the experts, reviewers in the review inbox, admins in the audit.
  await expect(page).toHaveURL(/\/(experts|inbox|audit)$/);
}

/** Signs in by filling and sending the sign-in form: for the specs whose subject is signing in. */
export async function signInWithForm(page: Page, email: string) {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/(experts|inbox|audit)$/);
}

export async function navLabels(page: Page): Promise<string[]> {
  return page.getByRole("navigation", { name: "Main" }).getByRole("link").allInnerTexts();
}

/** The tenant a header shows: its name, or the switcher's choice for someone in two tenants. */
export function shownTenant(tenant: Locator): Promise<string> {
  return tenant.evaluate((el) =>
    el instanceof HTMLSelectElement ? (el.selectedOptions[0]?.textContent ?? "") : (el.textContent ?? ""),
  );
}

/** A goal that makes the autonomous agent plan, delegate to two specialists and compute. */
const AUTONOMOUS_GOAL =
  "Should we file a 510(k) or request De Novo classification for our new glucose monitor? Check adverse event reporting with the pharmacovigilance expert and the cost per QALY with the health economist: 45000 / 0.9.";

interface RunBody {
  run: { status: string; waitingOn: { caseId: string } | null; error: string | null };
}

/**
 * Starts a strict autonomous run as the demo reviewer, through the API. At the strict level a
 * reviewer other than the run's owner decides its tools, delegations, critical decision and
 * final review (separation of duties), so the page's own account can then decide every one.
 */
export async function startStrictRunAsReviewer(page: Page, goal: string): Promise<string> {
  const reviewer = await request.newContext({ baseURL: new URL(page.url()).origin });
  try {
    const signedIn = await reviewer.post("/api/session", {
      data: { email: "reviewer@demo.local", password: PASSWORD },
    });
    expect(signedIn.status(), await signedIn.text()).toBeLessThan(300);
    const started = await reviewer.post("/api/runs", {
      data: { workflow: "autonomous", input: { goal, agentId: "fda-regulatory", safetyLevel: "strict" } },
    });
    expect(started.status(), await started.text()).toBe(202);
    return (await started.json()).runId as string;
  } finally {
    await reviewer.dispose();
  }
}

/** Starts a strict autonomous run (as the reviewer) and approves each checkpoint until it finishes. */
export async function finishedRun(page: Page): Promise<string> {
  const runId = await startStrictRunAsReviewer(page, AUTONOMOUS_GOAL);
  let decided: string | null = null;
  for (let i = 0; i < 40; i++) {
    let body: RunBody | null = null;
    await expect
      .poll(
        async () => {
          body = (await (await page.request.get(`/api/runs/${runId}`)).json()) as RunBody;
          const { status, waitingOn } = body.run;
          if (status === "running" || (status === "interrupted" && waitingOn?.caseId === decided)) return "working";
          return status;
        },
        { timeout: 30_000, intervals: [250] },
      )
      .not.toBe("working");
    const run = (body as RunBody | null)?.run;
    if (run?.status !== "interrupted") {
      expect(run?.status, run?.error ?? "").toBe("completed");
      return runId;
    }
    decided = run.waitingOn?.caseId ?? null;
    const res = await page.request.post(`/api/hitl/cases/${decided}/decision`, {
      data: { request_id: randomUUID(), decision: "approved", notes: "Checked for the audit" },
    });
    expect(res.status(), await res.text()).toBe(200);
  }
  throw new Error("the run did not finish");
}

/** The page does not scroll sideways (a phone's width holds everything). */
export async function expectNoHorizontalOverflow(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

/** The same signed-in session on a 390 px touch screen. */
export async function phonePage(browser: Browser, page: Page): Promise<Page> {
  const context = await browser.newContext({
    storageState: await page.context().storageState(),
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  return context.newPage();
}
