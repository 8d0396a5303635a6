import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkBoundaries } from "./boundaries";
import { fixtureTree } from "./fixture-tree";

const ROOT = path.resolve(import.meta.dirname, "../..");

describe("import boundaries", () => {
  it("the codebase keeps them: no lib internals from outside, no server code in the client", () => {
    const violations = checkBoundaries(ROOT).map((v) => `${v.rule}: ${v.file} — ${v.detail}`);
    expect(violations).toEqual([]);
  });

  describe("the checker", () => {
    const { dir, write } = fixtureTree("boundaries");

    it("reports each kind of break", () => {
      write("lib/store/index.ts", 'import "server-only";\nexport { save } from "./save";\n');
      write("lib/store/save.ts", "export const save = 1;\n");
      write("lib/store/contract.ts", "export type Row = { id: string };\n");
      write("lib/loose/index.ts", "export const x = 1;\n");
      write("lib/leaky/index.ts", 'import "server-only";\n');
      write("lib/leaky/contract.ts", 'import { save } from "@/lib/store";\nexport const y = save;\n');
      write("components/Fine.tsx", '"use client";\nimport type { Row } from "@/lib/store/contract";\n');
      write("components/helper.ts", 'import { save } from "@/lib/store";\nexport const h = save;\n');
      write("components/Bad.tsx", '"use client";\nimport { h } from "./helper";\nexport const b = h;\n');
      write("app/page.tsx", 'import { save } from "@/lib/store/save";\nexport default save;\n');
      write(
        "lib/store/cache.ts",
        "// globalThis in a comment is fine\nexport const cache = (globalThis as { c?: number }).c;\n",
      );
      write("lib/trace/outbox.ts", 'import { report } from "@/lib/audit";\nexport const o = report;\n');
      write("lib/audit/index.ts", 'import "server-only";\nexport const report = 1;\n');
      write("lib/process/index.ts", 'import "server-only";\nexport const held = globalThis;\n');
      write(
        "lib/store/settings.ts",
        [
          "// VIGIL_IN_A_COMMENT and a message naming VIGIL_IN_TEXT are fine",
          'export const message = "set VIGIL_IN_TEXT";',
          "export const a = process.env.VIGIL_DIRECT;",
          'export const b = (env: Record<string, string>) => env["VIGIL_BY_KEY"];',
          "export const { VIGIL_DESTRUCTURED: c } = process.env;",
          "export const d = (name: string) => process.env[name];",
        ].join("\n"),
      );
      write("lib/config/index.ts", 'import "server-only";\nexport const own = process.env.VIGIL_OWN;\n');
      write("lib/store/settings.test.ts", "process.env.VIGIL_SET_BY_A_TEST = '1';\n");
      write("lib/agents/echo/graph.ts", "export const graph = (compiled: object) => compiled as unknown as string;\n");
      write("lib/agents/echo/state.ts", "export const fine = (v: object) => v as unknown as string;\n");

      const found = checkBoundaries(dir).map((v) => [v.rule, v.file, v.detail]);
      expect(found).toEqual(
        expect.arrayContaining([
          ["internal-import", "app/page.tsx", "imports lib/store/save.ts; use @/lib/store"],
          ["server-marker", "lib/loose/index.ts", 'a server index starts with import "server-only"'],
          [
            "client-reaches-server",
            "components/Bad.tsx",
            "components/Bad.tsx → components/helper.ts → lib/store/index.ts",
          ],
          ["contract-reaches-server", "lib/leaky/contract.ts", "lib/leaky/contract.ts → lib/store/index.ts"],
          ["unused-export", "lib/loose/index.ts", "x is used nowhere outside"],
          ["process-state", "lib/store/cache.ts", "touches globalThis; use processSingleton from @/lib/process"],
          [
            "layer",
            "lib/trace/outbox.ts",
            "imports lib/audit/index.ts: the trace's write path does not depend on the reports over it",
          ],
          ["settings-read", "lib/store/settings.ts", "reads VIGIL_DIRECT; use config() from @/lib/config"],
          ["settings-read", "lib/store/settings.ts", "reads VIGIL_BY_KEY; use config() from @/lib/config"],
          ["settings-read", "lib/store/settings.ts", "reads VIGIL_DESTRUCTURED; use config() from @/lib/config"],
          ["settings-read", "lib/store/settings.ts", "reads process.env[…]; use config() from @/lib/config"],
          ["run-path-cast", "lib/agents/echo/graph.ts", "casts through unknown (as unknown as); type it"],
        ]),
      );
      expect(found.filter(([rule]) => rule !== "unused-export")).toHaveLength(11);
    });
  });
});
