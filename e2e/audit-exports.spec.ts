import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { expect, test } from "./fixtures";
import { signIn } from "./support";

// An admin exports the trace from the audit's Exports tab, downloads the file and checks it:
// the SHA-256 of the bytes received is the one the page shows and the API's manifest records.

test("an admin exports the trace, downloads it, and its SHA-256 matches the manifest", async ({ page, browser }) => {
  test.setTimeout(120_000);
  await signIn(page, "admin@demo.local");

  // Something in the chain to export: a run's start is chained within a second.
  const started = await page.request.post("/api/runs", {
    data: { workflow: "autonomous", input: { goal: "Summarise the adverse event reports", agentId: "fda-regulatory" } },
  });
  expect(started.status(), await started.text()).toBe(202);
  await expect
    .poll(async () => (await (await page.request.get("/api/audit/verify")).json()).chainLength as number, {
      timeout: 30_000,
    })
    .toBeGreaterThan(0);

  await page.getByRole("navigation", { name: "Audit" }).getByRole("link", { name: "Exports" }).click();
  await expect(page).toHaveURL(/\/audit\/exports$/);
  await expect(page.getByRole("heading", { level: 1, name: "Exports" })).toBeVisible();

  // By keyboard: choose the trace as CSV and press Enter on the button.
  const form = page.getByRole("form", { name: "Request an export" });
  await form.getByLabel("What").selectOption("trace");
  await form.getByLabel("Format").selectOption("csv");
  await form.getByRole("button", { name: "Export" }).press("Enter");

  const item = page.getByTestId("audit-export").first();
  await expect(item).toHaveAttribute("data-status", "ready", { timeout: 60_000 });
  const id = (await item.getAttribute("data-export-id")) as string;
  const shown = ((await item.getByTestId("manifest-sha256").textContent()) ?? "").trim();
  expect(shown).toMatch(/^[0-9a-f]{64}$/);
  const rowsShown = Number(((await item.getByTestId("manifest-rows").textContent()) ?? "").replace(/\D/g, ""));
  expect(rowsShown).toBeGreaterThan(0);

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    item.getByRole("link", { name: "Download CSV" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^vigil-trace-\d{4}-\d{2}-\d{2}-[0-9a-f]{8}\.csv$/);
  const bytes = await readFile((await download.path()) as string);
  const digest = createHash("sha256").update(bytes).digest("hex");
  expect(digest).toBe(shown);

  const manifest = (await (await page.request.get(`/api/audit/exports/${id}`)).json()) as {
    status: string;
    manifest: { sha256: string; rowCount: number; byteSize: number; chainHead: { seq: number; hash: string } };
  };
  expect(manifest.status).toBe("ready");
  expect(manifest.manifest.sha256).toBe(digest);
  expect(manifest.manifest.byteSize).toBe(bytes.length);
  // A header line, then one CRLF-ended line per row (the demo's trace has no line breaks in text).
  const lines = bytes.toString("utf8").split("\r\n");
  expect(lines[0].split(",").slice(0, 3)).toEqual(["seq", "id", "trace_id"]);
  expect(lines.at(-1)).toBe("");
  expect(manifest.manifest.rowCount).toBe(rowsShown);
  await expect(item.getByTestId("manifest-chain-head")).toContainText(manifest.manifest.chainHead.hash);

  // The page on a phone: nothing sticks out sideways, the long hashes wrap.
  const phone = await (
    await browser.newContext({
      storageState: await page.context().storageState(),
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    })
  ).newPage();
  await phone.goto("/audit/exports");
  await expect(phone.getByTestId("manifest-sha256").first()).toBeVisible();
  const overflow = await phone.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  await phone.context().close();
});

test("a member gets the 403 page and 403 from the exports API", async ({ page }) => {
  await signIn(page, "expert@demo.local");
  const response = await page.goto("/audit/exports");
  expect(response?.status()).toBe(403);
  const list = await page.request.get("/api/audit/exports");
  expect(list.status()).toBe(403);
  const create = await page.request.post("/api/audit/exports", { data: { kind: "trace", format: "csv" } });
  expect(create.status()).toBe(403);
  expect((await create.json()).code).toBe("FORBIDDEN");
});
