import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as principlesRoute from "@/app/api/principles/route";
import { rowsOf } from "@/lib/db";
import { drainTrace } from "@/lib/trace";
import { ADMIN, hitlClient, MEMBER } from "../api-hitl/support";
import { appTargets } from "../support/databases";
import { scriptedModelForSuite } from "../support/scripted-model-suite";
import { seededDatabase } from "../support/seeded";
import { autonomousApi } from "./support";

// A whole autonomous run with a model configured: the deployment points at an OpenAI-compatible
// endpoint whose answers are scripted from each request's phase. The model chooses each tool
// step's tool (its first choice is not an authorised tool and is refused), and judges the answer
// against a tenant's judged principle, whose revision reaches the reviewer. The run, the engine,
// the AI SDK and the database are the real ones.

const MODEL_ID = "scripted-autonomous";
const GOAL =
  "Should we file a 510(k) or request De Novo classification for a novel low-risk device without a predicate?";
const COMPETITOR = "Globex sells a cleared device you could buy as your predicate instead.";
const CRITERION = "Never recommend buying a competitor's product.";

const scripted = scriptedModelForSuite(MODEL_ID);

for (const target of appTargets()) {
  describe(`an autonomous run with a model on ${target.name}`, () => {
    const suite = seededDatabase(target);
    const client = hitlClient();
    const api = autonomousApi(client);

    it("lets the model choose tools within the authorised ones, and judge the answer against a principle", async () => {
      const set = await client.put(ADMIN, principlesRoute.PUT, "/api/principles", {
        principles: [
          { id: "cite_sources", description: "Cite everything.", severity: "high" },
          {
            id: "no_competitor_advice",
            description: CRITERION,
            severity: "high",
            check: { kind: "judged", criterion: CRITERION },
          },
        ],
      });
      expect(set.status, JSON.stringify(set.body)).toBe(200);

      let toolChoices = 0;
      scripted.model.calls.length = 0;
      scripted.model.script = (call) => {
        switch (call.phase) {
          case "act":
            toolChoices += 1;
            // The first choice names a tool the agent has no authority for; later ones are in bounds.
            return toolChoices === 1
              ? { tool: "web_search", arguments: { query: "510(k) De Novo" }, reason: "Search the web." }
              : {
                  tool: "knowledge_search",
                  arguments: { query: "De Novo classification novel device no predicate" },
                  reason: "The knowledge base covers De Novo requests.",
                };
          case "judge": {
            const text = call.prompt.slice(call.prompt.indexOf("Text:\n") + "Text:\n".length);
            return text.includes("Globex")
              ? {
                  violated: true,
                  reason: "It recommends buying Globex's device.",
                  revision: text.replace(COMPETITOR, "").trim(),
                }
              : { violated: false, reason: "Nothing recommends a competitor.", revision: null };
          }
          case "plan":
          case "decide":
            // Not usable: planning and weighing fall back to the offline steps (tested elsewhere).
            return "no plan from me";
          default:
            // Answers (the run's and its specialists'): a cited sentence, and the advice the principle forbids.
            return `A device without a predicate of low to moderate risk may request De Novo classification [1]. ${COMPETITOR}`;
        }
      };

      const runId = await api.start(MEMBER, { goal: GOAL, agentId: "fda-regulatory", safetyLevel: "strict" });
      const seen: Record<string, Record<string, unknown>> = {};
      let body = await api.stopped(MEMBER, runId);
      for (let stops = 0; body.status === "interrupted" && stops < 30; stops++) {
        const waiting = api.waitingOn(body);
        seen[waiting.type] ??= waiting.request;
        expect((await api.decide(waiting.caseId, "approved")).status).toBe(200);
        body = await api.stopped(MEMBER, runId);
      }
      expect(body.status, body.error ?? "").toBe("completed");

      await drainTrace();
      const llmCalls = rowsOf<{ event_data: Record<string, unknown> }>(
        await suite.database.db.execute(
          sql`select event_data from execution_trace where run_id = ${runId} and event_type = 'llm_call' order by seq`,
        ),
      ).map((r) => r.event_data);
      const choices = llmCalls.filter((c) => c.purpose === "tool_choice");
      expect(choices.length).toBeGreaterThanOrEqual(2);
      // The unauthorised tool was refused, said so, and the plan's tool ran in its place.
      expect(choices[0]).toMatchObject({
        outcome: "refused",
        reason: expect.stringContaining('"web_search" is not among the authorised tools'),
      });
      expect(choices.slice(1).every((c) => c.outcome === "ok")).toBe(true);
      const tools = rowsOf<{ tool_name: string; parameters: Record<string, unknown> }>(
        await suite.database.db.execute(
          sql`select tool_name, parameters from tool_executions where run_id = ${runId} order by created_at`,
        ),
      );
      expect(tools.map((t) => t.tool_name)).not.toContain("web_search");
      // After the refusal, the model's own query ran.
      expect(tools.slice(1).map((t) => t.parameters.query)).toContain(
        "De Novo classification novel device no predicate",
      );
      // The checkpoint showed the model's choice to the reviewer.
      expect(seen.tool_execution).toBeTruthy();

      // The judged principle: the model found the violation, and its revision is what the reviewer saw.
      expect(llmCalls.filter((c) => c.purpose === "principle_judgement")).toEqual(
        expect.arrayContaining([expect.objectContaining({ principle: "no_competitor_advice", outcome: "ok" })]),
      );
      const [validation] = rowsOf<{ principles_failed: string[]; revision_applied: boolean; violations: string[] }>(
        await suite.database.db.execute(
          sql`select principles_failed, revision_applied, violations from constitutional_validations
              where run_id = ${runId} and content_type = 'response'`,
        ),
      );
      expect(validation.principles_failed).toContain("no_competitor_advice");
      expect(validation.revision_applied).toBe(true);
      // The plan was judged too, one step at a time: checked, found compliant (no step names Globex).
      const [planned] = rowsOf<{ principles_checked: string[]; principles_passed: string[] }>(
        await suite.database.db.execute(
          sql`select principles_checked, principles_passed from constitutional_validations
              where run_id = ${runId} and content_type = 'plan'`,
        ),
      );
      expect(planned.principles_checked).toContain("no_competitor_advice");
      expect(planned.principles_passed).toContain("no_competitor_advice");
      // Texts other than the answer (plan steps, the decision's texts) reached the judge.
      const judged = scripted.model.calls.filter((c) => c.phase === "judge");
      expect(judged.some((c) => !c.prompt.includes("De Novo classification [1]"))).toBe(true);
      const reviewed = String(seen.final_review?.response_text ?? "");
      expect(reviewed).toContain("De Novo classification [1]");
      expect(reviewed).not.toContain("Globex");
      expect(body.state.answer?.text).not.toContain("Globex");
    }, 120_000);
  });
}
