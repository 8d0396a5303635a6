import { randomUUID } from "node:crypto";
import { expect, type Page, test } from "./fixtures";
import { signIn } from "./support";

/** A pending case in Demo Pharma, so the open-case counts the nav and the inbox share are not zero. */
async function openCase(page: Page) {
  const submitted = await page.request.post("/api/hitl/cases", {
    data: {
      request_id: randomUUID(),
      adapter_id: "lgv_troubleshooting",
      case_type: "incident",
      title: "LGV-3 stops short of the charger",
      submitter: { name: "Erin Expert", role: "LGV support engineer", team: "Lyon DC2 maintenance" },
      priority: "normal",
      payload: {
        symptom: "Stops 40 cm before the charger",
        site: "Lyon DC2",
        lgv_id: "LGV-3",
        services_checked: ["charging"],
        evidence: [{ source: "fleet manager log", observation: "DOCK_TIMEOUT at 05:40" }],
        proposed_next_action: "Recalibrate the charger's approach point",
      },
    },
  });
  expect(submitted.status(), await submitted.text()).toBe(201);
}

// The nav's badge and the inbox read the open-case counts through one query cache, and the
// inbox hydrates in its own Suspense boundary after the shell. Here that boundary's code comes
// only once the nav has its counts, as a slow network or a busy phone can arrange: the inbox
// must hydrate as the server rendered it, not with the counts already in the cache.
test("the inbox hydrates without a mismatch when the nav's counts arrive first", async ({ page }) => {
  await signIn(page, "reviewer@demo.local");
  await openCase(page);

  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(`uncaught ${error.name}: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console error: ${message.text()}`);
  });

  let countsArrived!: () => void;
  const counts = new Promise<void>((resolve) => {
    countsArrived = resolve;
  });
  page.on("response", (response) => {
    if (new URL(response.url()).pathname === "/api/hitl/queue/counts") countsArrived();
  });
  const held: string[] = [];
  await page.route(/\/_next\/static\/chunks\/.+\.js$/, async (route) => {
    const response = await route.fetch();
    const body = await response.text();
    // The inbox's own code (its shortcut help is in no other chunk) waits for the nav's counts.
    if (body.includes("Shortcuts: ")) {
      // Not forever: were this chunk the shell's too, the nav could not ask for its counts.
      held.push(
        await Promise.race([
          counts.then(() => "until the counts came"),
          new Promise((resolve) => setTimeout(resolve, 5_000)).then(() => "5 s without counts"),
        ]),
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await route.fulfill({ response, body });
  });

  await page.goto("/inbox");
  await expect(page.getByTestId("nav-open-cases").first()).toBeVisible();
  await expect(page.getByRole("heading", { name: "Review inbox" })).toBeVisible();
  await expect(page.getByTestId("shortcuts")).toBeVisible();
  // The counts reach the filters once hydrated.
  await expect(page.getByTestId("count-pending")).toHaveText(/^\d+$/);
  expect(held).toContain("until the counts came");
  expect(problems).toEqual([]);
});
