import { minimalPdf } from "../tests/rag/pdf";
import { expect, test } from "./fixtures";
import { navLabels, signIn } from "./support";

// A word no demo document contains, so a search for it can only find the uploaded note.
const MARKER = "zorbalite";
const TITLE = "Densitometer calibration note";
const NOTE = `# ${TITLE}

## Schedule

The ${MARKER} densitometer is calibrated every quarter against the vendor reference plates.

## Records

Each calibration is written in the equipment log with the date and the technician's initials.
`;

test("an admin uploads a document, finds it, sees a re-upload recognised, and deletes it", async ({ page }) => {
  await signIn(page, "admin@demo.local");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Knowledge" }).click();
  await expect(page).toHaveURL(/\/knowledge$/);
  await expect(page.getByRole("heading", { name: "Knowledge base", level: 1 })).toBeVisible();

  // The demo corpus is listed a page at a time.
  const rows = page.getByTestId("document-row");
  await expect(rows.first()).toBeVisible();
  const firstPage = await rows.count();
  expect(firstPage).toBeGreaterThan(0);
  await page.getByRole("button", { name: "Load more" }).click();
  await expect.poll(() => rows.count()).toBeGreaterThan(firstPage);
  await expect(page.getByRole("button", { name: "Load more" })).toHaveCount(0);
  await page.getByLabel("Filter documents by title").fill("510(k)");
  await expect(rows.first()).toContainText("510(k)");
  await page.getByLabel("Filter documents by title").fill("");

  // A file of an unsupported type is refused before it is sent.
  const file = page.getByLabel("Document file");
  await file.setInputFiles({ name: "report.xlsx", mimeType: "application/octet-stream", buffer: Buffer.from("PK") });
  await expect(page.getByRole("alert").filter({ hasText: "not a supported type" })).toBeVisible();
  // A chosen file without a domain says so before Upload is pressed.
  await expect(page.getByTestId("domain-needed")).toBeVisible();

  // A new domain is checked against the API's rule, then added and selected.
  await page.getByLabel("New domain").fill("Not A Domain!");
  await page.getByRole("button", { name: "Add domain" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "lower-case letters" })).toBeVisible();
  await page.getByLabel("New domain").fill("lab-notes");
  await page.getByLabel("New domain").press("Enter");
  await expect(page.getByRole("checkbox", { name: "lab-notes" })).toBeChecked();
  await page.getByRole("checkbox", { name: "clinical" }).check();

  await file.setInputFiles({ name: "calibration.md", mimeType: "text/markdown", buffer: Buffer.from(NOTE) });
  await expect(page.getByTestId("chosen-file")).toContainText("calibration.md");
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(page.getByTestId("upload-result")).toContainText(`Added “${TITLE}”`);
  // The next upload starts with the domains of this one.
  await page.reload();
  await expect(page.getByRole("checkbox", { name: "lab-notes" })).toBeChecked();
  await expect(page.getByRole("checkbox", { name: "clinical" })).toBeChecked();
  await expect(page.getByRole("checkbox", { name: "regulatory" })).not.toBeChecked();

  // Listed first (newest), with its domains and the chunk count the API reports.
  const row = rows.filter({ hasText: TITLE });
  await expect(row).toHaveCount(1);
  await expect(rows.first()).toContainText(TITLE);
  await expect(row).toContainText("lab-notes");
  await expect(row).toContainText("clinical");
  await expect(row).toContainText("by you");
  const list = await (await page.request.get("/api/knowledge/documents?limit=5")).json();
  const uploaded = list.items.find((d: { title: string }) => d.title === TITLE);
  expect(uploaded.chunkCount).toBeGreaterThan(0);
  await expect(row.getByTestId("chunk-count")).toHaveText(String(uploaded.chunkCount));

  // The same content again writes nothing and says so.
  await file.setInputFiles({ name: "calibration-copy.md", mimeType: "text/markdown", buffer: Buffer.from(NOTE) });
  await page.getByRole("checkbox", { name: "clinical" }).check();
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(page.getByTestId("upload-result")).toContainText("already in the knowledge base");
  await expect(rows.filter({ hasText: TITLE })).toHaveCount(1);

  // Retrieval finds it by a word only it contains.
  await page.getByLabel("Question or keywords").fill(MARKER);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  const hits = page.getByTestId("search-hit");
  await expect(hits.first()).toContainText(TITLE);
  await expect(hits.first()).toContainText("Schedule");
  await expect(hits.first()).toContainText(MARKER);
  await expect(hits).toHaveCount(1);

  // Deleting asks first, then removes it everywhere.
  await page.getByRole("button", { name: `Delete ${TITLE}` }).click();
  await page.getByRole("button", { name: "Delete document" }).click();
  await expect(page.getByTestId("delete-result")).toContainText(`Deleted “${TITLE}”`);
  await expect(rows.filter({ hasText: TITLE })).toHaveCount(0);
  expect((await page.request.get(`/api/knowledge/documents/${uploaded.id}`)).status()).toBe(404);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page.getByTestId("search-empty")).toBeVisible();
});

test("a member has no Knowledge entry and is refused at /knowledge", async ({ page }) => {
  await signIn(page, "expert@demo.local");
  expect(await navLabels(page)).not.toContain("Knowledge");
  await page.goto("/knowledge");
  await expect(page.getByText("Not available for your role")).toBeVisible();
  await expect(page.getByLabel("Document file")).toHaveCount(0);
  const upload = await page.request.post("/api/knowledge/documents", {
    multipart: {
      file: { name: "note.md", mimeType: "text/markdown", buffer: Buffer.from("# Note\n\nText.") },
      domains: "clinical",
    },
  });
  expect(upload.status()).toBe(403);
});

test("a document opens from the list with its sections, chunks and pages, a page of chunks at a time", async ({
  page,
}) => {
  await signIn(page, "admin@demo.local");
  await page.goto("/knowledge");
  // The filter reads the documents loaded so far: load them all first.
  await page.getByRole("button", { name: "Load more" }).click();
  await expect(page.getByRole("button", { name: "Load more" })).toHaveCount(0);
  await page.getByLabel("Filter documents by title").fill("choosing an expert");
  const link = page.getByRole("link", { name: "Vigil guide: choosing an expert" });
  await link.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/knowledge\/[0-9a-f-]{36}$/);
  const viewer = page.getByTestId("document-viewer");
  await expect(viewer.getByRole("heading", { level: 1 })).toHaveText("Vigil guide: choosing an expert");
  await expect(viewer.getByTestId("document-status")).toHaveText("Ready");
  await expect(viewer).toContainText("guide");
  // The guide's sections, in order, each with its chunks.
  const titles = viewer.getByTestId("section-title");
  await expect(titles.first()).toBeVisible();
  expect(await titles.allTextContents()).toEqual(
    expect.arrayContaining(["Finding an expert", "Which expert for which question", "Safety levels"]),
  );
  const chunks = viewer.getByTestId("chunk");
  await expect(chunks.first()).toContainText("Chunk 0");
  const count = Number(await viewer.getByTestId("document-chunk-count").textContent());
  await expect(chunks).toHaveCount(count);
  // A Markdown document has no pages.
  await expect(viewer.getByTestId("chunk-page")).toHaveCount(0);
  await page.getByRole("link", { name: "Knowledge base" }).click();
  await expect(page).toHaveURL(/\/knowledge$/);

  // A PDF: every chunk says its page; an admin uploads one through the API.
  const pdf = await page.request.post("/api/knowledge/documents", {
    multipart: {
      file: {
        name: "cold-storage.pdf",
        mimeType: "application/pdf",
        buffer: Buffer.from(
          minimalPdf(
            Array.from({ length: 60 }, (_, i) => [`Page ${i + 1} of the cold storage log: freezer ${i + 1} checked.`]),
            "Cold storage log",
          ),
        ),
      },
      domains: "clinical",
    },
  });
  expect(pdf.status(), await pdf.text()).toBe(201);
  const { document } = await pdf.json();
  await page.goto(`/knowledge/${document.id}`);
  await expect(viewer.getByTestId("document-size")).toContainText("60 pages");
  await expect(viewer.getByTestId("chunk")).toHaveCount(50);
  await expect(viewer.getByTestId("chunk-page").first()).toHaveText("Page 1");
  await expect(viewer.getByTestId("chunks-shown")).toContainText("Chunks 0–49 of 60");
  await page.getByRole("button", { name: "Load more chunks" }).click();
  await expect(viewer.getByTestId("chunk")).toHaveCount(60);
  await expect(viewer.getByTestId("chunk-page").last()).toHaveText("Page 60");
  await expect(page.getByRole("button", { name: "Load more chunks" })).toHaveCount(0);

  // An unknown document is the app's 404 page.
  const missing = await page.goto("/knowledge/00000000-0000-4000-8000-000000000000");
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
  await page.request.delete(`/api/knowledge/documents/${document.id}`);
});
