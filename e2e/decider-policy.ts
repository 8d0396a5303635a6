import { type Browser, expect } from "@playwright/test";
import { signIn } from "./support";

const STRICT_TYPES = ["1 · Plan", "2 · Tool execution", "3 · Sub-agent", "4 · Critical decision", "5 · Final review"];

/**
 * An admin sets who decides a strict run's checkpoints on the agent settings page: `owner` lets
 * the run's owner decide all five, `defaults` restores the tenant's defaults (four eyes from the
 * tools on). In a context of its own, so the caller's signed-in page is left as it is.
 */
export async function setStrictDeciders(browser: Browser, to: "owner" | "defaults"): Promise<void> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, "admin@demo.local");
  await page.goto("/settings/agents");
  const form = page.getByRole("form", { name: "Who decides checkpoints" });
  await expect(form.getByLabel("1 · Plan at the strict level")).toBeVisible();
  if (to === "defaults") {
    await form.getByRole("button", { name: "Back to the defaults" }).click();
  } else {
    for (const type of STRICT_TYPES) await form.getByLabel(`${type} at the strict level`).selectOption("owner");
  }
  const save = form.getByRole("button", { name: "Save who decides" });
  if (await save.isEnabled()) {
    await save.click();
    await expect(form.getByRole("status")).toHaveText("Saved.");
  }
  await context.close();
}
