import { describe, expect, it } from "vitest";
import { checkpointNumberLabel, checkpointTypesPassedOver, passedOverSentence } from "@/components/runs/format";

describe("checkpoint numbers are the design's types, not a count", () => {
  it("labels a number against the design's five", () => {
    expect(checkpointNumberLabel(5)).toBe("checkpoint 5 of 5");
    expect(checkpointNumberLabel(null)).toBeNull();
  });

  it("names the types a run went past: 1, 2, 5 has had no sub-agent (3) or critical decision (4)", () => {
    const passed = checkpointTypesPassedOver([1, 2, 2, 5]);
    expect(passed).toEqual([
      { number: 3, label: "Sub-agent" },
      { number: 4, label: "Critical decision" },
    ]);
    expect(passedOverSentence(passed)).toBe("sub-agent (3) or critical decision (4)");
  });

  it("says nothing of types a run may still reach, nor of a run with no gap", () => {
    expect(checkpointTypesPassedOver([1, 2])).toEqual([]);
    expect(checkpointTypesPassedOver([1, 2, 3, 4, 5])).toEqual([]);
    expect(checkpointTypesPassedOver([null, 1])).toEqual([]);
    expect(checkpointTypesPassedOver([])).toEqual([]);
    expect(checkpointTypesPassedOver([1, 4])).toEqual([
      { number: 2, label: "Tool execution" },
      { number: 3, label: "Sub-agent" },
    ]);
    expect(passedOverSentence([{ number: 3, label: "Sub-agent" }])).toBe("sub-agent (3)");
  });
});
