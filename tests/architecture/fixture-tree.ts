import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll } from "vitest";

/**
 * A scratch source tree for a checker's own test, removed after the suite: `write` puts a file
 * at a path relative to `dir`, making its folders.
 */
export function fixtureTree(name: string): { dir: string; write: (file: string, text: string) => void } {
  const dir = mkdtempSync(path.join(tmpdir(), `vigil-${name}-`));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  };
  return { dir, write };
}
