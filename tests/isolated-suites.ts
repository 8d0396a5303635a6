// The test files that get a process of their own (Vitest's `isolated` project); every other test
// file shares its worker's process with the files before and after it (vitest.config.ts).
//
// A file belongs here when it changes the worker's module registry (`vi.resetModules`,
// `vi.mock`, `vi.doMock`): the modules it loads afresh are not the ones the next file's helpers
// hold, so that file's active database and the routes' would be two different ones.
// tests/architecture/shared-process.test.ts holds the list to that rule.

/** lib tests that open a database, set the active one or read engine settings from the environment. */
export const ISOLATED_LIB_FILES = [
  "lib/graph-saver/metadata-index.test.ts",
  "lib/rag/vectors.test.ts",
  "lib/runs/heartbeat.test.ts",
  "lib/trace/hash-versions.test.ts",
  "lib/agents/autonomous/tools.test.ts",
  "lib/agents/autonomous/model-planning.test.ts",
  "lib/agents/autonomous/tool-choice.test.ts",
];

/** Reloads the server's modules per case, to read the environment afresh. */
export const ISOLATED_SUITES = ["tests/operations/health-retrieval.test.ts"];
