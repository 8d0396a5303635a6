import { describe, expect, it } from "vitest";
import { clarificationOf, type ResearchRunDetail } from "@/components/research/api";

const run = (over: Partial<ResearchRunDetail>): ResearchRunDetail => ({
  id: "00000000-0000-4000-8000-000000000001",
  workflow: "deep-research",
  status: "interrupted",
  error: null,
  state: {},
  pendingInterrupts: [],
  waitingOn: null,
  lastSeq: 3,
  createdBy: "u1",
  createdAt: "2026-11-28T10:00:00.000Z",
  updatedAt: "2026-11-28T10:00:00.000Z",
  finishedAt: null,
  ...over,
});

const asking = {
  kind: "research_clarification",
  iteration: 2,
  questions: ["Which region?", "Which years?"],
  coverage_score: 0.42,
  knowledge_gaps: ["region"],
};

describe("clarificationOf", () => {
  it("reads the questions a research run waits on from its pending interrupt", () => {
    expect(
      clarificationOf(run({ pendingInterrupts: [{ id: "i1", node: "hitl_generate_questions", value: asking }] })),
    ).toEqual(asking);
  });

  it("is null while the run works, waits at a checkpoint, or waits on something else", () => {
    const pending = [{ id: "i1", node: "hitl_generate_questions", value: asking }];
    expect(clarificationOf(run({ status: "running", pendingInterrupts: pending }))).toBeNull();
    expect(
      clarificationOf(
        run({
          pendingInterrupts: pending,
          waitingOn: {
            caseId: "c1",
            type: "plan_approval",
            number: 1,
            status: "pending",
            request: {},
            checkpointId: "k1",
            riskLevel: "low",
            allowedActions: ["approve"],
            expiresAt: null,
          },
        }),
      ),
    ).toBeNull();
    expect(clarificationOf(run({ pendingInterrupts: [{ id: "i2", node: "x", value: { kind: "other" } }] }))).toBeNull();
  });

  it("fills what an early interrupt leaves out, so the chat never reads undefined", () => {
    const early = clarificationOf(
      run({ pendingInterrupts: [{ id: "i1", node: "n", value: { kind: "research_clarification" } }] }),
    );
    expect(early).toEqual({
      kind: "research_clarification",
      iteration: 0,
      questions: [],
      coverage_score: 0,
      knowledge_gaps: [],
    });
  });
});
