import path from "node:path";
import { describe, expect, it } from "vitest";
import { ISOLATED_LIB_FILES, ISOLATED_SUITES } from "../isolated-suites";
import { fixtureTree } from "./fixture-tree";
import { unlistedIsolationNeeds } from "./shared-process";

const ROOT = path.resolve(import.meta.dirname, "../..");

describe("test files that share a process", () => {
  it("leave the module registry and process.env alone, or run in a process of their own", () => {
    expect(unlistedIsolationNeeds(ROOT, [...ISOLATED_LIB_FILES, ...ISOLATED_SUITES])).toEqual([]);
  });

  describe("the checker", () => {
    const { dir, write } = fixtureTree("isolation");

    it("finds each way of changing them, in a file nobody listed", () => {
      write("tests/a/reset.test.ts", "vi.resetModules();\n");
      write("tests/a/mock.test.ts", 'vi.mock("@/lib/db", () => ({}));\n');
      write("tests/a/swap.test.ts", "process.env = saved;\n");
      write("lib/x/domock.test.ts", 'vi.doMock("./y");\n');
      write("tests/a/listed.test.ts", "vi.resetModules();\n");
      write("tests/a/fine.test.ts", 'vi.stubEnv("A", "1");\nif (process.env === undefined) {}\n');
      write("tests/support/helper.ts", "vi.resetModules();\n");
      expect(unlistedIsolationNeeds(dir, ["tests/a/listed.test.ts"]).sort()).toEqual([
        "lib/x/domock.test.ts",
        "tests/a/mock.test.ts",
        "tests/a/reset.test.ts",
        "tests/a/swap.test.ts",
      ]);
    });
  });
});
