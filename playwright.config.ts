import { defineConfig, devices } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3210);

// Debian's Chromium: this machine cannot download Playwright's own browser builds.
const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export default defineConfig({
  testDir: "e2e",
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [["list"], ["json", { outputFile: "test-results/e2e.json" }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
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
  webServer: {
    // Against the production build, on a fresh embedded database of its own.
    command: `rm -rf .data/e2e && npx next start -p ${port}`,
    url: `http://127.0.0.1:${port}/api/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    env: {
      VIGIL_DATA_DIR: ".data/e2e",
      // No secrets: an embedded install generates its auth secret and data-source keys beside its
      // database, so the specs also prove that `npm start` needs no configuration.
      // Specs register the local PostgreSQL and MariaDB as sources: the operator's allowance.
      VIGIL_DATASOURCE_ALLOW_HOSTS: "127.0.0.1,localhost",
    },
  },
});
