import { defineConfig, devices } from "@playwright/test";
import { E2E_WORKERS, suiteServerPort } from "./e2e/ports";

// Debian's Chromium: this machine cannot download Playwright's own browser builds.
const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export default defineConfig({
  testDir: "e2e",
  timeout: 60_000,
  expect: { timeout: 15_000 },
  // A spec file's tests run in order in one worker; files run side by side, each worker against
  // its own suite server (e2e/fixtures.ts gives a spec its worker's server as baseURL).
  fullyParallel: false,
  workers: E2E_WORKERS,
  retries: 0,
  reporter: [["list"], ["json", { outputFile: "test-results/e2e.json" }]],
  use: {
    baseURL: `http://127.0.0.1:${suiteServerPort(0)}`,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        launchOptions: {
          executablePath,
          args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
        },
      },
    },
  ],
  // One server per worker, each against the production build on an embedded database of its own,
  // a copy of one seeded once for the build (scripts/e2e-seeded-dir.mjs).
  webServer: Array.from({ length: E2E_WORKERS }, (_, lane) => ({
    command: `node scripts/e2e-seeded-dir.mjs .data/e2e-lane${lane} && npx next start -p ${suiteServerPort(lane)}`,
    url: `http://127.0.0.1:${suiteServerPort(lane)}/api/health`,
    // The first lane to start seeds the folder (a minute or two on a busy machine); the others wait.
    timeout: 300_000,
    reuseExistingServer: false,
    env: {
      VIGIL_DATA_DIR: `.data/e2e-lane${lane}`,
      // No secrets: the seeding generated the data-source keys into the folder, and the server
      // generates its auth secret beside them, so the specs also prove that `npm start` on an
      // embedded install needs no configuration.
      // Specs register the local PostgreSQL and MariaDB as sources: the operator's allowance.
      VIGIL_DATASOURCE_ALLOW_HOSTS: "127.0.0.1,localhost",
    },
  })),
});
