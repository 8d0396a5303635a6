import { randomUUID } from "node:crypto";
import { AUDIT_TABS } from "@/components/audit/audit-tabs";
import { type Browser, expect, type Page, type Request, test } from "./fixtures";
import { signIn, signInWithForm } from "./support";

// Every page each demo role can reach — the navigation's pages (and the refusal a role gets for
// the ones above it), and the detail pages: a conversation, a run, a case, a document, the
// settings sections, a mistyped address — visited in a real browser, failing on any console
// error, any uncaught exception and any failed request. A response of 400 or more fails too,
// unless it is listed below with the reason the page expects it.

interface Expected {
  /** The page being visited. */
  page: RegExp;
  /** The request answered with the status. */
  url: RegExp;
  status: number;
  reason: string;
}

const EXPECTED: Expected[] = [
  {
    page: /^\/audit(\/|$)/,
    url: /^\/audit(\/|$)/,
    status: 403,
    reason: "the audit is for admins: a member or a reviewer gets the 403 page (the test checks admins get the page)",
  },
  {
    page: /^\/settings\/data-sources\/[0-9a-f-]{36}$/,
    url: /^\/settings\/data-sources\/[0-9a-f-]{36}$/,
    status: 403,
    reason: "a data source's settings are for admins: a member or a reviewer gets the 403 page",
  },
  {
    page: /^\/no-such-page\//,
    url: /\/no-such-page\//,
    status: 404,
    reason: "a mistyped address is answered by the app's 404 page, with status 404",
  },
  {
    page: /^\/knowledge\/0{8}-/,
    url: /\/knowledge\/0{8}-/,
    status: 404,
    reason: "a document that does not exist is the 404 page",
  },
];

/** Requests the app or the framework cancels on purpose (ERR_ABORTED), each with why. */
const CANCELLED: {
  reason: string;
  test: (url: string, headers: Record<string, string>, visiting: string) => boolean;
}[] = [
  {
    reason:
      "Next.js prefetches the pages links point to, first as a route tree and then, for a dynamic page, in full; it cancels the prefetch it no longer needs",
    test: (url, headers) => headers["next-router-prefetch"] === "1" && new URL(url).searchParams.has("_rsc"),
  },
  {
    reason:
      "a new conversation becomes /chat/<id> (router.replace) while its first answer streams; Next.js at times drops that navigation's page fetch and the address changes all the same (the test waits for it) — the cause is not found yet",
    test: (url, _headers, visiting) =>
      visiting.startsWith("/chat/new") &&
      /^\/chat\/[0-9a-f-]{36}$/.test(new URL(url).pathname) &&
      new URL(url).searchParams.has("_rsc"),
  },
];

const UNKNOWN_DOCUMENT = "/knowledge/00000000-0000-4000-8000-000000000000";

/** A data source's page: an admin's first source (if the tenant has one), else any id (the 403 page). */
async function dataSourcePages(page: Page, account: Account): Promise<string[]> {
  if (account.role !== "admin") return ["/settings/data-sources/00000000-0000-4000-8000-000000000000"];
  const sources = await (await page.request.get("/api/datasources")).json();
  return sources.items.slice(0, 1).map((s: { id: string }) => `/settings/data-sources/${s.id}`);
}

interface Account {
  email: string;
  role: "member" | "reviewer" | "admin";
  /** The expert its conversation is with. */
  agent: { slug: string; name: string };
}

const ACCOUNTS: Account[] = [
  { email: "expert@demo.local", role: "member", agent: { slug: "fda-regulatory", name: "FDA Regulatory Specialist" } },
  {
    email: "reviewer@demo.local",
    role: "reviewer",
    agent: { slug: "fda-regulatory", name: "FDA Regulatory Specialist" },
  },
  { email: "admin@demo.local", role: "admin", agent: { slug: "fda-regulatory", name: "FDA Regulatory Specialist" } },
  { email: "expert@acme.local", role: "member", agent: { slug: "device-quality", name: "Device Quality Engineer" } },
  { email: "admin@acme.local", role: "admin", agent: { slug: "device-quality", name: "Device Quality Engineer" } },
];

/** The audit's tabs, in their order; the test checks an admin gets each page and others the 403. */
const AUDIT_PAGES = AUDIT_TABS.map((tab) => tab.href);

const NAV_PAGES = [
  "/experts",
  "/runs",
  "/research",
  "/requests",
  "/inbox",
  "/knowledge",
  "/settings/api-keys",
  "/settings/agents",
  "/settings/data-sources",
];

/** Watches a page for what a person would call broken, attributed to the page being visited. */
function watch(page: Page) {
  const problems: string[] = [];
  let visiting = "/sign-in";
  // Which visit issued a request: the events of a page left behind can arrive after the next
  // visit began.
  let visit = 0;
  const issuedIn = new WeakMap<object, number>();
  const where = () => `on ${visiting}`;
  const expected = (url: string, status: number) => {
    const path = new URL(url, "http://x").pathname;
    return EXPECTED.some((e) => e.page.test(visiting) && e.url.test(path) && e.status === status);
  };
  // Requests still in flight when the test leaves a page (streams, polls) are cancelled by leaving.
  const inFlight = new Set<Request>();
  let leftBehind = new Set<Request>();
  let leaving = false;
  page.on("request", (request) => {
    issuedIn.set(request, visit);
    inFlight.add(request);
  });
  page.on("requestfinished", (request) => inFlight.delete(request));
  page.on("console", (message) => {
    if (message.type() !== "error") return;
    // The browser logs every 4xx document it loads; an expected one is not a fault of the page.
    const status = /status of (\d{3})/.exec(message.text())?.[1];
    if (status && expected(message.location().url, Number(status))) return;
    problems.push(`${where()}: console error: ${message.text()} (${message.location().url})`);
  });
  page.on("pageerror", (error) => problems.push(`${where()}: uncaught ${error.name}: ${error.message}`));
  page.on("requestfailed", async (request) => {
    inFlight.delete(request);
    const failure = request.failure()?.errorText ?? "failed";
    if (failure.includes("ERR_ABORTED")) {
      // Leaving a page cancels what it still had in flight (a stream, a poll): that is the test
      // moving on, not a request of the page failing.
      if (leaving || leftBehind.has(request) || (issuedIn.get(request) ?? visit) < visit) return;
      const headers = await request.allHeaders();
      if (CANCELLED.some((c) => c.test(request.url(), headers, visiting))) return;
    }
    problems.push(`${where()}: ${request.method()} ${request.url()} ${failure}`);
  });
  page.on("response", (response) => {
    if (response.status() < 400 || expected(response.url(), response.status())) return;
    const path = new URL(response.url()).pathname;
    problems.push(`${where()}: ${response.request().method()} ${path} answered ${response.status()}`);
  });
  // Streams and polls stay open while a page lives: settling waits for everything else.
  const longLived = (request: Request) =>
    request.resourceType() === "eventsource" ||
    (request.headers().accept ?? "").includes("text/event-stream") ||
    /\/stream(\?|$)/.test(new URL(request.url()).pathname);
  /** What the page loads after it shows (lists, counts) has answered: 150 ms with nothing else in flight. */
  const settled = async () => {
    const deadline = Date.now() + 5_000;
    let quietSince = Date.now();
    while (Date.now() < deadline) {
      if ([...inFlight].some((r) => !leftBehind.has(r) && !longLived(r))) quietSince = Date.now();
      else if (Date.now() - quietSince >= 150) return;
      await page.waitForTimeout(25);
    }
  };
  return {
    problems,
    settled,
    async visit(path: string, ready?: (page: Page) => Promise<void>) {
      leftBehind = new Set(inFlight);
      leaving = true;
      visit++;
      await page.goto("about:blank");
      visit++;
      leaving = false;
      visiting = path;
      await page.goto(path);
      await expect(page.locator("main")).toBeVisible();
      if (ready) await ready(page);
      await settled();
    },
  };
}

/** A conversation of the account's own, started in the browser; returns its address. */
async function startConversation(watcher: ReturnType<typeof watch>, page: Page, account: Account): Promise<string> {
  await watcher.visit(`/chat/new?agent=${account.agent.slug}`);
  const composer = page.getByLabel(`Message ${account.agent.name}`);
  await composer.fill("What should a complaint file contain?");
  await composer.press("Enter");
  await expect(page).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("confidence")).toBeVisible({ timeout: 30_000 });
  return new URL(page.url()).pathname;
}

interface DemoData {
  runPath: string;
  caseId: string;
}

/** A run (waiting at its plan approval) and a case, both from Demo Pharma's member. */
async function demoData(browser: Browser): Promise<DemoData> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, "expert@demo.local");
  const started = await page.request.post("/api/runs", {
    data: {
      workflow: "autonomous",
      input: { goal: "Which pathway fits a new glucose monitor: 510(k) or De Novo?", agentId: "fda-regulatory" },
    },
  });
  expect(started.status(), await started.text()).toBe(202);
  const { runId } = await started.json();
  await expect
    .poll(async () => (await (await page.request.get(`/api/runs/${runId}`)).json()).run.status, { timeout: 60_000 })
    .not.toBe("running");
  const submitted = await page.request.post("/api/hitl/cases", {
    data: {
      request_id: randomUUID(),
      adapter_id: "lgv_troubleshooting",
      case_type: "incident",
      title: "LGV-7 stops at the dock entrance",
      submitter: { name: "Erin Expert", role: "LGV support engineer", team: "Lyon DC2 maintenance" },
      priority: "high",
      payload: {
        symptom: "Stops at the dock entrance with a navigation fault",
        site: "Lyon DC2",
        lgv_id: "LGV-7",
        services_checked: ["navigation"],
        evidence: [{ source: "fleet manager log", observation: "NAV_LOST at 03:12" }],
        proposed_next_action: "Re-survey reflectors in aisle 4",
      },
    },
  });
  expect(submitted.status(), await submitted.text()).toBe(201);
  const { caseId } = await submitted.json();
  await context.close();
  return { runPath: `/runs/${runId}`, caseId };
}

test.describe("every page, as every role", () => {
  let data: DemoData;

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(120_000);
    data = await demoData(browser);
  });

  for (const account of ACCOUNTS) {
    test(`${account.email} (${account.role}): no console error and no failed request on any page`, async ({ page }) => {
      test.setTimeout(240_000);
      const watcher = watch(page);
      // Through the form: the sign-in page is one of the pages watched.
      await signInWithForm(page, account.email);

      const conversation = await startConversation(watcher, page, account);
      await watcher.settled();

      const documents = await (await page.request.get("/api/knowledge/documents?limit=1")).json();
      const documentPath = `/knowledge/${documents.items[0].id}`;
      const demo = account.email.endsWith("@demo.local");

      const pages = [
        ...NAV_PAGES,
        "/settings",
        "/chat",
        conversation,
        documentPath,
        UNKNOWN_DOCUMENT,
        ...(await dataSourcePages(page, account)),
        "/no-such-page/at-all",
        ...(demo ? [data.runPath] : []),
        ...(demo && account.role !== "member" ? [`/inbox?case=${data.caseId}`] : []),
      ];
      for (const path of pages) await watcher.visit(path);
      const audit = [
        ...AUDIT_PAGES,
        ...(demo
          ? [
              data.runPath.replace(/^\/runs\//, "/audit/runs/"),
              `${data.runPath.replace(/^\/runs\//, "/audit/runs/")}/report`,
            ]
          : []),
      ];
      for (const path of audit) {
        await watcher.visit(path, async (p) => {
          if (account.role === "admin") await expect(p.getByRole("navigation", { name: "Audit" })).toBeVisible();
          else await expect(p.getByRole("heading", { name: "Not available for your role" })).toBeVisible();
        });
      }
      if (account.role === "admin") {
        // The document list loads its next page without a fault.
        await watcher.visit("/knowledge", async (p) => {
          const more = p.getByRole("button", { name: "Load more" });
          await expect(p.getByTestId("document-row").first()).toBeVisible();
          if (await more.isVisible()) {
            await more.click();
            await expect(more).toHaveCount(0);
          }
        });
      }
      expect(watcher.problems, watcher.problems.join("\n")).toEqual([]);
    });
  }
});
