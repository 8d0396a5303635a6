import { Annotation, END, interrupt, START, StateGraph } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { currentLane, type Lane } from "@/lib/db";
import { installWorkflows, type RunnableGraph, resumeRun, startRun, type Workflow } from "@/lib/runs";
import { testTargets } from "../support/databases";
import { actorFor, settled } from "../support/runs";
import { seededDatabase } from "../support/seeded";

// What lane each node saw, per run: the database calls a node makes are asked for in that lane.
const seen = new Map<string, { node: string; lane: Lane }[]>();
const State = Annotation.Root({ runKey: Annotation<string>(), answer: Annotation<unknown>() });

function note(runKey: string, node: string) {
  const list = seen.get(runKey) ?? [];
  list.push({ node, lane: currentLane() });
  seen.set(runKey, list);
}

function buildGraph(checkpointer: Parameters<Workflow["build"]>[0]): RunnableGraph {
  return new StateGraph(State)
    .addNode("work", async (s: typeof State.State) => {
      note(s.runKey, "work");
      return {};
    })
    .addNode("ask", async (s: typeof State.State) => {
      note(s.runKey, "ask");
      return { answer: interrupt({ question: "Go on?" }) };
    })
    .addNode("more_work", async (s: typeof State.State) => {
      note(s.runKey, "more_work");
      return {};
    })
    .addEdge(START, "work")
    .addEdge("work", "ask")
    .addEdge("ask", "more_work")
    .addEdge("more_work", END)
    .compile({ checkpointer });
}

const base = { input: z.object({ runKey: z.string() }), build: buildGraph, publicState: () => ({}) };
const backgroundWork: Workflow = { ...base, name: "lanes-background", background: true };
const personWork: Workflow = { ...base, name: "lanes-interactive" };
installWorkflows([backgroundWork, personWork]);

for (const target of testTargets()) {
  describe(`database lanes of run executions on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });

    async function runThrough(workflow: string, runKey: string) {
      const actor = actorFor(suite.tenants);
      const { runId } = await startRun(actor, { workflow, input: { runKey } });
      expect((await settled(actor, runId)).status).toBe("interrupted");
      await resumeRun(actor, runId, { value: "yes" });
      expect((await settled(actor, runId)).status).toBe("completed");
      return seen.get(runKey);
    }

    it("runs a background workflow's work in the background lane, and the step that takes up a decision as a person's", async () => {
      expect(await runThrough("lanes-background", `${target.name}-background`)).toEqual([
        { node: "work", lane: "background" },
        { node: "ask", lane: "background" },
        // The decision: the node that stopped runs again with it, while the reviewer waits.
        { node: "ask", lane: "interactive" },
        // Once that step has ended, the run is background work again.
        { node: "more_work", lane: "background" },
      ]);
    });

    it("runs every other workflow as a person's work", async () => {
      const lanes = await runThrough("lanes-interactive", `${target.name}-interactive`);
      expect(lanes?.map((l) => l.lane)).toEqual(["interactive", "interactive", "interactive", "interactive"]);
    });
  });
}
