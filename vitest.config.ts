import path from "node:path";
import { defineConfig } from "vitest/config";
import { ISOLATED_LIB_FILES, ISOLATED_SUITES } from "./tests/isolated-suites";

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      // Tests are server code: the marker's server build (what Next.js resolves for server modules).
      "server-only": path.resolve(import.meta.dirname, "node_modules/server-only/empty.js"),
    },
  },
  test: {
    projects: [
      {
        // Pure unit tests share their workers' module graph: a fresh fork per file spent more time
        // importing the server's modules than running these tests. Any file that touches a database,
        // the active-database global or engine settings read from the environment stays isolated.
        extends: true,
        test: { name: "unit", include: ["lib/**/*.test.ts"], exclude: ISOLATED_LIB_FILES, isolate: false },
      },
      {
        // The suites run one after another in each worker's process, on modules loaded once:
        // importing the server's modules afresh for every suite took about a second of the
        // suite's wall time each. Each suite still has its own database (a template copy) and
        // sets the active one itself; the environment is put back after it
        // (tests/support/shared-process.ts). What a process keeps per database is kept per
        // database (not per tenant id: every copy has the same tenants).
        extends: true,
        test: {
          name: "suites",
          include: ["tests/**/*.test.ts"],
          exclude: ISOLATED_SUITES,
          isolate: false,
          setupFiles: ["tests/support/shared-process.ts"],
        },
      },
      {
        extends: true,
        test: { name: "isolated", include: [...ISOLATED_LIB_FILES, ...ISOLATED_SUITES] },
      },
    ],
    // The checkpoint validation suite registers its cases through Vitest globals.
    globals: true,
    pool: "forks",
    // Two suites at once on two cores: much of a suite's time is spent waiting on PostgreSQL,
    // MariaDB or a child process, and Vitest's default of one worker per core less one left one
    // core idle.
    maxWorkers: 2,
    // Migrates and seeds once per run; every suite's database is a copy (tests/support/templates.ts).
    globalSetup: ["tests/support/templates.ts"],
    // Starting PGlite compiles its WASM (seconds on a small machine); migrations add more.
    testTimeout: 60_000,
    hookTimeout: 180_000,
    env: {
      VIGIL_DATA_DIR: "memory://",
      BETTER_AUTH_SECRET: "vigil-test-secret-vigil-test-secret",
      // The suites' data sources are the local PostgreSQL and MariaDB: the operator's allowance.
      VIGIL_DATASOURCE_ALLOW_HOSTS: "127.0.0.1,localhost,::1",
    },
  },
});
