import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SAFETY_LEVELS, type SafetyLevel, SEVERITIES, type Severity } from "../contract";
import { type GatedCheckpoint, gateOf, safetyLevelOf, safetySettingsOf } from "./safety";

const CHECKPOINTS: GatedCheckpoint[] = [
  "plan_approval",
  "tool_execution",
  "subagent_spawn",
  "critical_decision",
  "final_review",
];

/** The table of docs/autonomous.md between its markers: one expectation per (checkpoint, risk, level). */
function documentedTable(): Map<string, "asks" | "system"> {
  const doc = readFileSync(join(process.cwd(), "docs/autonomous.md"), "utf8");
  const block = doc.split("<!-- safety-levels:start -->")[1]?.split("<!-- safety-levels:end -->")[0];
  if (!block) throw new Error("docs/autonomous.md has no safety-levels table");
  const rows = block
    .trim()
    .split("\n")
    .map((line) =>
      line
        .split("|")
        .slice(1, -1)
        .map((c) => c.trim()),
    );
  const [header, , ...body] = rows;
  const levels = header.slice(2) as SafetyLevel[];
  expect([...levels].sort()).toEqual([...SAFETY_LEVELS].sort());
  const table = new Map<string, "asks" | "system">();
  for (const cells of body) {
    const checkpoint = /`([a-z_]+)`/.exec(cells[0])?.[1];
    const risks = cells[1].split(",").map((r) => r.trim());
    for (const risk of risks) {
      levels.forEach((level, i) => {
        const key = `${checkpoint}|${risk}|${level}`;
        expect(table.has(key), `${key} twice in the table`).toBe(false);
        const cell = cells[2 + i];
        expect(["asks", "system"]).toContain(cell);
        table.set(key, cell as "asks" | "system");
      });
    }
  }
  return table;
}

describe("safety levels", () => {
  it("are the design's two switches: only permissive auto-approves low risk; strict and balanced require tool approval", () => {
    expect(SAFETY_LEVELS.map((level) => [level, safetySettingsOf(level)])).toEqual([
      ["strict", { hitl_auto_approve_low_risk: false, tools_require_approval: true }],
      ["balanced", { hitl_auto_approve_low_risk: false, tools_require_approval: true }],
      ["permissive", { hitl_auto_approve_low_risk: true, tools_require_approval: false }],
    ]);
  });

  it("ask a person exactly where the documented table says, for every checkpoint, risk and level", () => {
    const table = documentedTable();
    // The table covers every combination, so a checkpoint or risk the code gates cannot go undocumented.
    expect(table.size).toBe(CHECKPOINTS.length * SEVERITIES.length * SAFETY_LEVELS.length);
    for (const checkpoint of CHECKPOINTS) {
      for (const risk of SEVERITIES) {
        for (const level of SAFETY_LEVELS) {
          const expected = table.get(`${checkpoint}|${risk}|${level}`);
          expect(gateOf(level, checkpoint, risk).ask ? "asks" : "system", `${checkpoint} ${risk} ${level}`).toBe(
            expected,
          );
        }
      }
    }
  });

  it("permissive never leaves a final answer, a critical decision or a high-risk tool to the system", () => {
    const never: [GatedCheckpoint, Severity][] = [
      ...SEVERITIES.map((r) => ["final_review", r] as [GatedCheckpoint, Severity]),
      ...SEVERITIES.map((r) => ["critical_decision", r] as [GatedCheckpoint, Severity]),
      ["tool_execution", "medium"],
      ["tool_execution", "high"],
      ["tool_execution", "critical"],
    ];
    for (const [checkpoint, risk] of never) expect(gateOf("permissive", checkpoint, risk).ask).toBe(true);
    const auto = gateOf("permissive", "tool_execution", "low");
    expect(auto.ask ? null : auto.reason).toBe(
      "Auto-approved: the permissive safety level approves a low-risk tool without a person (hitl_auto_approve_low_risk).",
    );
    // A checkpoint whose risk is not given is not treated as low.
    expect(gateOf("permissive", "subagent_spawn").ask).toBe(true);
  });

  it("takes an agent's own safety setting as the run's default level", () => {
    expect([safetyLevelOf("high"), safetyLevelOf("medium"), safetyLevelOf("low")]).toEqual([
      "strict",
      "balanced",
      "permissive",
    ]);
  });
});
