import { randomUUID } from "node:crypto";
import { expect, type Locator, type Page, test } from "./fixtures";
import { shownTenant, signIn } from "./support";

// Vigil on a 390 × 844 phone: the header folds into a menu, chat keeps its composer at the
// bottom with conversations and sources as sheets, the inbox goes list → case → list, and no
// page scrolls sideways.

const PHONE = { width: 390, height: 844 };
test.use({ viewport: PHONE, isMobile: true, hasTouch: true });

const AGENT = "FDA Regulatory Specialist";

/** The page does not scroll sideways, and the layout is the phone's width (not zoomed out to fit). */
async function expectFits(page: Page, where: string) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(innerWidth, `${where}: layout width`).toBe(PHONE.width);
  expect(scrollWidth, `${where}: page width`).toBeLessThanOrEqual(innerWidth);
}

interface Stop {
  path: string;
  /** What the page is for: visible on the first screen, without scrolling. */
  primary: (page: Page) => Locator[];
  /** Further down, or in a table that scrolls in its own box: in view once scrolled to. */
  reachable?: (page: Page) => Locator[];
}

const composer = (page: Page) => [
  page.getByLabel(`Message ${AGENT}`),
  page.getByRole("button", { name: "Send message" }),
];

const MEMBER_STOPS: Stop[] = [
  { path: "/experts", primary: (page) => [page.getByTestId("expert-card").first()] },
  {
    path: "/runs",
    primary: (page) => [page.getByLabel("Goal"), page.getByRole("button", { name: "Start run" })],
  },
  {
    path: "/research",
    primary: (page) => [
      page.getByLabel("Question", { exact: true }),
      page.getByRole("button", { name: "Start research" }),
    ],
  },
  { path: "/requests", primary: (page) => [page.getByRole("heading", { level: 1, name: "My requests" })] },
  { path: "/chat", primary: (page) => [page.getByRole("button", { name: "Conversations" })] },
  { path: "/chat/new?agent=fda-regulatory", primary: composer },
];
const REVIEWER_STOPS: Stop[] = [
  ...MEMBER_STOPS,
  {
    path: "/inbox",
    primary: (page) => [page.getByTestId("case-row").first()],
  },
];
const ADMIN_STOPS: Stop[] = [
  ...REVIEWER_STOPS,
  { path: "/knowledge", primary: (page) => [page.getByRole("button", { name: "Upload", exact: true })] },
  { path: "/settings/api-keys", primary: (page) => [page.getByRole("button", { name: "Create key" })] },
  {
    path: "/settings/agents",
    primary: (page) => [page.getByRole("table", { name: "Tools" })],
    reachable: (page) => [page.getByRole("button", { name: "Save calculator" })],
  },
];

const ROLES = [
  {
    email: "expert@demo.local",
    role: "member",
    nav: ["Experts", "Runs", "Research", "My requests"],
    stops: MEMBER_STOPS,
  },
  {
    email: "reviewer@demo.local",
    role: "reviewer",
    nav: ["Experts", "Runs", "Research", "My requests", "Inbox"],
    stops: REVIEWER_STOPS,
  },
  {
    email: "admin@demo.local",
    role: "admin",
    nav: [
      "Experts",
      "Runs",
      "Research",
      "My requests",
      "Inbox",
      "Audit",
      "Knowledge",
      "API keys",
      "Agent settings",
      "Data sources",
    ],
    stops: ADMIN_STOPS,
  },
];

/** A pending case in the inbox, submitted through the API as the member. */
async function submitCase(page: Page): Promise<string> {
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
  return (await res.json()).caseId;
}

test.beforeAll(async ({ browser }) => {
  // Something in the inbox, so its first case can be looked for.
  const page = await browser.newPage();
  await signIn(page, "expert@demo.local");
  await submitCase(page);
  await page.close();
});

test("the sign-in page fits the phone", async ({ page }) => {
  await page.goto("/sign-in");
  for (const target of [page.getByLabel("Email"), page.getByRole("button", { name: "Sign in" })]) {
    await expect(target).toBeInViewport();
  }
  await expectFits(page, "sign-in");
});

for (const { email, role, nav, stops } of ROLES) {
  test(`${role}: the header is one menu button; the menu holds the nav, the account and Sign out`, async ({ page }) => {
    await signIn(page, email);
    await expectFits(page, "home");
    const button = page.getByRole("button", { name: "Menu" });
    await expect(button).toBeInViewport();
    // While the menu is open the page behind it (the button too) is hidden from the accessibility tree.
    const trigger = page.getByTestId("header-menu-button");
    await expect(button).toHaveAttribute("aria-expanded", "false");
    // Folded away: no nav and no Sign out in the header itself.
    await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
    await expect(page.getByRole("button", { name: "Sign out" })).toBeHidden();

    // A click that lands before the page has hydrated does nothing; click again until it opens.
    await expect(async () => {
      if ((await trigger.getAttribute("aria-expanded")) !== "true") await button.click();
      await expect(trigger).toHaveAttribute("aria-expanded", "true", { timeout: 2_000 });
    }).toPass({ timeout: 15_000 });
    const menu = page.getByRole("dialog", { name: "Menu" });
    await expect(menu).toBeVisible();
    expect(await menu.getByRole("navigation", { name: "Main" }).getByRole("link").allTextContents()).toEqual(nav);
    await expect(menu.getByTestId("current-role")).toHaveText(role);
    // A name for one tenant; the demo admin, in two, has a switcher showing the current one.
    await expect.poll(() => shownTenant(menu.getByTestId("tenant-name"))).toMatch(/^Demo Pharma\b/);
    await expect(menu.getByRole("button", { name: "Sign out" })).toBeInViewport();
    await expect(menu.getByRole("button", { name: /Switch to (dark|light) theme/ })).toBeInViewport();
    await expectFits(page, "menu open");

    // Escape closes it and gives the focus back to the button.
    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();
    await expect(button).toBeFocused();
    await expect(button).toHaveAttribute("aria-expanded", "false");

    // A link closes it on the way to its page.
    await button.click();
    await menu.getByRole("link", { name: "Runs" }).click();
    await expect(page).toHaveURL(/\/runs$/);
    await expect(menu).toBeHidden();
    await expect(page.getByRole("heading", { level: 1, name: "Runs" })).toBeVisible();
  });

  test(`${role}: every page fits the phone with its primary action on the first screen`, async ({ page }) => {
    await signIn(page, email);
    for (const stop of stops) {
      await page.goto(stop.path);
      for (const target of stop.primary(page)) {
        await expect(target, `${stop.path}: ${target}`).toBeInViewport();
      }
      for (const target of stop.reachable?.(page) ?? []) {
        await target.scrollIntoViewIfNeeded();
        await expect(target, `${stop.path}: ${target}`).toBeInViewport();
      }
      await expectFits(page, stop.path);
    }
    // A page that does not exist is still inside the app's (folded) header.
    await page.goto("/no-such-page");
    await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Menu" })).toBeInViewport();
    await expectFits(page, "not found");
  });
}

test("chat on a phone: the composer stays at the bottom; conversations and sources open as sheets", async ({
  page,
}) => {
  await signIn(page, "expert@demo.local");
  await page.getByTestId("expert-card").filter({ hasText: AGENT }).click();
  await expect(page).toHaveURL(/\/chat\/new\?agent=fda-regulatory/);
  const [input, send] = composer(page);
  await input.fill("What does a 510(k) need to show?");
  await send.click();
  await expect(page).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("confidence")).toBeVisible();
  await expectFits(page, "chat");

  // The composer sits at the foot of the screen, the conversation above it; the page itself does
  // not scroll (the messages do).
  for (const target of [input, send]) await expect(target).toBeInViewport();
  const box = await input.boundingBox();
  expect(box && box.y + box.height).toBeGreaterThan(PHONE.height - 120);
  expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThanOrEqual(PHONE.height);
  // Sources are not stacked under the conversation.
  await expect(page.getByTestId("sources-list")).toBeHidden();

  // Sources: a button in the chat's header opens them as a sheet.
  const sourcesButton = page.getByRole("button", { name: /^Sources \(\d+\)$/ });
  await expect(sourcesButton).toBeInViewport();
  await sourcesButton.click();
  const sources = page.getByRole("dialog", { name: "Sources" });
  await expect(sources).toBeVisible();
  await expect(sources.getByTestId("sources-list").getByRole("listitem").first()).toBeInViewport();
  await expectFits(page, "sources sheet");
  await page.keyboard.press("Escape");
  await expect(sources).toBeHidden();
  await expect(sourcesButton).toBeFocused();

  // A citation opens the same sheet at the cited passage.
  await page.getByTestId("citation-badge").first().click();
  await expect(sources).toBeVisible();
  await expect(sources.getByTestId("source-detail")).toBeInViewport();
  await expect(sources.getByTestId("source-passage").locator("mark").first()).toBeVisible();
  await sources.getByRole("button", { name: "Close", exact: true }).click();
  await expect(sources).toBeHidden();

  // Conversations: the list opens as a sheet; choosing one closes it.
  const sessionUrl = page.url();
  await page.getByRole("link", { name: "New chat", exact: true }).click();
  await expect(page).toHaveURL(/\/chat\/new\?agent=fda-regulatory/);
  await page.getByRole("button", { name: "Conversations" }).click();
  const conversations = page.getByRole("dialog", { name: "Conversations" });
  await expect(conversations).toBeVisible();
  const item = conversations.getByTestId("session-item").first();
  await expect(item).toBeInViewport();
  await expectFits(page, "conversations sheet");
  await item.getByRole("link").click();
  await expect(page).toHaveURL(sessionUrl);
  await expect(conversations).toBeHidden();
  await expect(page.getByTestId("answer").last()).toContainText("510(k)");
  for (const target of composer(page)) await expect(target).toBeInViewport();
});

test("inbox on a phone: the queue alone, a case full width, and back to the queue", async ({ browser, page }) => {
  const member = await browser.newPage();
  await signIn(member, "expert@demo.local");
  const id = await submitCase(member);
  await member.close();

  await signIn(page, "reviewer@demo.local");
  await expect(page).toHaveURL(/\/inbox$/);
  const row = page.locator(`[data-case-id="${id}"]`);
  await expect(page.getByTestId("case-row").first()).toBeInViewport();
  await expect(row).toBeVisible();
  // No case pane beside or under the queue.
  await expect(page.getByRole("region", { name: "Case" })).toBeHidden();
  await expectFits(page, "queue");

  await row.click();
  await expect(page).toHaveURL(new RegExp(`\\?case=${id}$`));
  const detail = page.getByTestId("case-detail");
  await expect(detail).toBeVisible();
  await expect(page.getByRole("region", { name: "Review queue" })).toBeHidden();
  const back = page.getByRole("button", { name: "Back to list" });
  await expect(back).toBeInViewport();
  // The row that was clicked is gone from the screen: the focus is on the way back instead.
  await expect(back).toBeFocused();
  for (const name of ["Approve", "Reject"]) {
    await expect(detail.getByRole("button", { name: new RegExp(`^${name}`) })).toBeInViewport();
  }
  await expectFits(page, "case");

  // "Back to list" returns to the queue…
  await back.click();
  await expect(page).toHaveURL(/\/inbox$/);
  await expect(row).toBeInViewport();
  await expect(row).toBeFocused();
  await expect(detail).toBeHidden();

  // …and so does the browser's Back.
  await row.click();
  await expect(detail).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\/inbox$/);
  await expect(row).toBeVisible();
  await expect(detail).toBeHidden();

  // A linked case opens full width too; its Back goes to the queue.
  await page.goto(`/inbox?case=${id}`);
  await expect(detail).toBeVisible();
  await page.getByRole("button", { name: "Back to list" }).click();
  await expect(page).toHaveURL(/\/inbox$/);
  await expect(row).toBeVisible();
});

test("a run started on a phone shows its page within the phone's width", async ({ page }) => {
  await signIn(page, "reviewer@demo.local");
  await page.goto("/runs");
  await page.getByLabel("Goal").fill("What does a 510(k) submission need to show for a glucose monitor?");
  await page.getByLabel("Expert").selectOption("fda-regulatory");
  await page.getByRole("radio", { name: /^Strict/ }).check();
  await page.getByRole("button", { name: "Start run" }).click();
  await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("run-goal")).toBeInViewport();
  await expect(page.getByRole("link", { name: "All runs" })).toBeInViewport();
  // It stops for the plan's approval: the decision is within the page's width.
  const approve = page.getByRole("button", { name: /^Approve/ }).first();
  await approve.scrollIntoViewIfNeeded();
  await expect(approve).toBeInViewport();
  await expectFits(page, "run");

  await page.getByRole("link", { name: "All runs" }).click();
  await expect(page.getByTestId("run-row").first()).toBeVisible();
  await expectFits(page, "runs");
});
