import path from "node:path";
import { describe, expect, it } from "vitest";
import { fixtureTree } from "./fixture-tree";
import { brandCasts } from "./guarded-sql";

const ROOT = path.resolve(import.meta.dirname, "../..");

describe("the SQL guard's brand", () => {
  it("is made only by the guard (and the named test-only helper)", () => {
    expect(brandCasts(ROOT)).toEqual([]);
  });

  describe("the checker", () => {
    const { dir, write } = fixtureTree("brand");

    it("finds every assertion to the brand outside the guard", () => {
      write("lib/sql/guard.ts", "export const ok = (s: string) => s as GuardedSql;\n");
      write("lib/agents/run.ts", "const a = 'x' as GuardedSql;\nconst b = <GuardedSql>'y';\n");
      write("app/route.ts", "const c = ('z' as unknown) as sql.GuardedSql;\nconst d = ['w'] as GuardedSql[];\n");
      write("lib/fine.ts", "const e: string = 'GuardedSql';\nconst f = 'v' as string;\n");
      expect(brandCasts(dir).sort()).toEqual([
        "app/route.ts:1",
        "app/route.ts:2",
        "lib/agents/run.ts:1",
        "lib/agents/run.ts:2",
      ]);
    });
  });
});
