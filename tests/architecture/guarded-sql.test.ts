import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { brandCasts } from "./guarded-sql";

const ROOT = path.resolve(import.meta.dirname, "../..");

describe("the SQL guard's brand", () => {
  it("is made only by the guard (and the named test-only helper)", () => {
    expect(brandCasts(ROOT)).toEqual([]);
  });

  describe("the checker", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "vigil-brand-"));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const write = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
    };

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
