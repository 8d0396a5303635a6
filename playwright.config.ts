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
    // next start runs in production mode, where the data-source keys must be configured.
    env: {
      VIGIL_DATA_DIR: ".data/e2e",
      BETTER_AUTH_SECRET: "e2e-secret-e2e-secret-e2e-secret-e2e",
      VIGIL_DATASOURCE_KEY: "6154a61dc0208b593df01360332f6f681345981eac84c0a00b84aaddf9a443f0",
      VIGIL_WAREHOUSE_KEY: "e2e-warehouse-key",
      // Specs register the local PostgreSQL and MariaDB as sources: the operator's allowance.
      VIGIL_DATASOURCE_ALLOW_HOSTS: "127.0.0.1,localhost",
    },
  },
});
