import { test as base } from "@playwright/test";
import { suiteServerPort } from "./ports";

// Specs import `test` from here rather than from Playwright: its `baseURL` is the suite server
// of the worker running the spec (playwright.config.ts starts one per worker), so two specs
// running at once never share a server or its database. Playwright guarantees that no two
// workers running at the same time have the same parallelIndex, and a worker that replaces a
// failed one takes over its index (and so its server).
export * from "@playwright/test";

export const test = base.extend({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern; it has none.
  baseURL: async ({}, use, testInfo) => {
    await use(`http://127.0.0.1:${suiteServerPort(testInfo.parallelIndex)}`);
  },
});
