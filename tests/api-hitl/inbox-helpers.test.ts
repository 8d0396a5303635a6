import { describe, expect, it } from "vitest";
import { humanize, PRIORITY_LABELS, STATE_LABELS } from "@/components/hitl/format";
import { modificationsOf } from "@/components/hitl/modifications";
import { HITL_PRIORITIES, HITL_STATES } from "@/lib/hitl/contract";
import { lgvPayload } from "./support";

describe("modify and approve", () => {
  const original = lgvPayload();
  const edit = (change: (p: Record<string, unknown>) => void) => {
    const copy = structuredClone(original) as Record<string, unknown>;
    change(copy);
    return JSON.stringify(copy, null, 2);
  };

  it("sends only the fields that changed", () => {
    expect(
      modificationsOf(
        original,
        edit((p) => {
          p.proposed_next_action = "Replace the scanner";
          (p.services_checked as string[]).push("safety");
        }),
      ),
    ).toEqual({
      modifications: {
        proposed_next_action: "Replace the scanner",
        services_checked: ["navigation", "wifi", "safety"],
      },
    });
    expect(
      modificationsOf(
        original,
        edit((p) => (p.extra = 1)),
      ),
    ).toEqual({ modifications: { extra: 1 } });
  });

  it("refuses what it cannot send: bad JSON, a non-object, removed fields, no change", () => {
    expect(modificationsOf(original, "{ nope")).toEqual({ problem: expect.stringContaining("not valid JSON") });
    expect(modificationsOf(original, "[1]")).toEqual({ problem: expect.stringContaining("JSON object") });
    expect(modificationsOf(original, "null")).toEqual({ problem: expect.stringContaining("JSON object") });
    expect(
      modificationsOf(
        original,
        edit((p) => delete p.missing_data),
      ),
    ).toEqual({
      problem: expect.stringContaining("missing_data"),
    });
    expect(modificationsOf(original, JSON.stringify(original))).toEqual({
      problem: expect.stringContaining("Nothing was changed"),
    });
  });

  it("labels payload keys for reviewers", () => {
    expect(humanize("proposed_next_action")).toBe("Proposed next action");
    // Abbreviations stay in capitals: "Lgv id" read as an internal name.
    expect(humanize("lgvId")).toBe("LGV ID");
    expect(humanize("lgv_troubleshooting")).toBe("LGV troubleshooting");
    expect(humanize("phi_access")).toBe("PHI access");
    expect(humanize("by_type")).toBe("By type");
    expect(humanize("chat_session")).toBe("Chat session");
    // Ref types are the caller's own lower_snake_case names.
    expect(humanize("neo4j_node")).toBe("Neo4j node");
  });

  it("labels every priority and state of the contract, critical included", () => {
    expect(Object.keys(PRIORITY_LABELS).sort()).toEqual([...HITL_PRIORITIES].sort());
    expect(PRIORITY_LABELS.critical).toBe("Critical");
    expect(Object.keys(STATE_LABELS).sort()).toEqual([...HITL_STATES].sort());
  });
});
