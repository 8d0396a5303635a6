import { describe, expect, it } from "vitest";
import type { RunEvent, RunEventBody } from "./contract";
import { deadAttemptParts } from "./event-log";

const log = (...bodies: RunEventBody[]): RunEvent[] => bodies.map((b, i) => ({ seq: i + 1, ...b }) as RunEvent);
const step = (node: string, status: "running" | "done" | "error"): RunEventBody => ({
  type: "step",
  payload: { node, status, message: node },
});
const text = (partId: string, delta = "words "): RunEventBody => ({ type: "text", payload: { partId, delta } });
const reasoning = (partId: string): RunEventBody => ({ type: "reasoning", payload: { partId, delta: "hmm" } });

describe("deadAttemptParts", () => {
  it("names the parts written after the last step that ended, not those of finished steps", () => {
    const events = log(
      { type: "run-start", payload: { runId: "r", workflow: "w" } },
      step("plan", "running"),
      text("t-a-1"),
      step("plan", "done"),
      step("respond", "running"),
      reasoning("r-a-2"),
      text("t-a-2"),
      text("t-a-2"),
    );
    expect(deadAttemptParts(events)).toEqual(["r-a-2", "t-a-2"]);
  });

  it("names nothing when the dead execution had finished its step", () => {
    expect(deadAttemptParts(log(step("respond", "running"), text("t-a-1"), step("respond", "done")))).toEqual([]);
  });

  it("treats a stop for a person and a decision as boundaries", () => {
    const events = log(
      text("t-a-1"),
      { type: "interrupt", payload: { interrupts: [] } },
      { type: "status", payload: { status: "interrupted" } },
      { type: "resume", payload: { interruptId: "i", actorId: "u" } },
      { type: "status", payload: { status: "running" } },
      text("t-b-1"),
    );
    expect(deadAttemptParts(events)).toEqual(["t-b-1"]);
  });

  it("after a second crash, names the new dead parts only, across the earlier recovery", () => {
    const events = log(
      step("respond", "running"),
      text("t-a-1"),
      { type: "supersede", payload: { partIds: ["t-a-1"] } },
      step("recovery", "done"),
      step("respond", "running"),
      text("t-b-1"),
    );
    expect(deadAttemptParts(events)).toEqual(["t-b-1"]);
  });
});
