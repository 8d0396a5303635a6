import { expect, type Locator, type Page } from "@playwright/test";

export const PASSWORD = "vigil-demo";

export async function signIn(page: Page, email: string) {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  // Members start with the experts, reviewers in the review inbox, admins in the audit.
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
