import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as principlesRoute from "@/app/api/principles/route";
import { rowsOf } from "@/lib/db";
import { ACME_ADMIN, ADMIN, hitlClient, MEMBER } from "../api-hitl/support";
import { appTargets } from "../support/databases";
import { seededDatabase } from "../support/seeded";
import { autonomousApi, DEMO_GOAL } from "./support";

interface Principle {
  id: string;
  severity: string;
  enabled: boolean;
  checked: boolean;
}

// The tenant's principles: admins set them, drafts are validated against them.
for (const target of appTargets()) {
  describe(`constitutional principles on ${target.name}`, () => {
    const suite = seededDatabase(target);
    const client = hitlClient();
    const api = autonomousApi(client);
    const put = (email: string, body: unknown) => client.put(email, principlesRoute.PUT, "/api/principles", body);

    it("starts from the defaults, takes an admin's set, refuses bad input whole, and validates with it", async () => {
      const first = await client.get(MEMBER, principlesRoute.GET, "/api/principles");
      expect(first.body.defaults).toBe(true);
      expect((first.body.items as Principle[]).map((p) => p.id).sort()).toEqual([
        "cite_sources",
        "disclose_uncertainty",
        "no_absolute_claims",
        "no_individual_prescription",
      ]);
      expect((await put(MEMBER, { principles: [] })).status).toBe(403);
      const duplicate = await put(ADMIN, {
        principles: [
          { id: "cite_sources", description: "a", severity: "high" },
          { id: "cite_sources", description: "b", severity: "low" },
        ],
      });
      expect(duplicate.status).toBe(400);
      expect((await put(ADMIN, { principles: [{ id: "x", description: "a", severity: "grave" }] })).status).toBe(400);
      expect((await put(ADMIN, { principles: [], extra: 1 })).status).toBe(400);
      // A principle nothing checks cannot be saved as enforced: the error names the field to fill.
      const unchecked = await put(ADMIN, {
        principles: [{ id: "house_style", description: "Write in the house style.", severity: "low" }],
      });
      expect(unchecked.status).toBe(400);
      expect(JSON.stringify(unchecked.body)).toMatch(/check/);
      expect(JSON.stringify(unchecked.body)).toMatch(/save it disabled/);
      const badPattern = await put(ADMIN, {
        principles: [
          {
            id: "refs",
            description: "x",
            severity: "low",
            check: { kind: "pattern", pattern: "(a)\\1", mode: "forbid" },
          },
        ],
      });
      expect(badPattern.status).toBe(400);
      // A judged check needs a model to judge it; none is configured here, and it declares no fallback.
      const judged = await put(ADMIN, {
        principles: [
          {
            id: "no_competitor_advice",
            description: "Never recommend a competitor's product.",
            severity: "high",
            check: { kind: "judged", criterion: "Never recommend a competitor's product." },
          },
        ],
      });
      expect(judged.status).toBe(400);
      expect(JSON.stringify(judged.body)).toMatch(/check/);
      expect(JSON.stringify(judged.body)).toMatch(/No model is configured/);
      expect((await client.get(MEMBER, principlesRoute.GET, "/api/principles")).body.defaults).toBe(true);

      const set = await put(ADMIN, {
        principles: [
          { id: "cite_sources", description: "Cite everything.", severity: "high", enabled: false },
          { id: "disclose_uncertainty", description: "Say when evidence is weak.", severity: "medium" },
          { id: "house_style", description: "Write in the house style.", severity: "low", enabled: false },
        ],
      });
      expect(set.status, JSON.stringify(set.body)).toBe(200);
      expect(set.body.defaults).toBe(false);
      expect((set.body.items as Principle[]).find((p) => p.id === "house_style")).toMatchObject({ checked: false });
      // Another tenant keeps its defaults.
      expect((await client.get(ACME_ADMIN, principlesRoute.GET, "/api/principles")).body.defaults).toBe(true);

      const runId = await api.start(MEMBER, { goal: DEMO_GOAL, agentId: "fda-regulatory", safetyLevel: "permissive" });
      let body = await api.stopped(MEMBER, runId);
      while (body.status === "interrupted") {
        await api.decide(api.waitingOn(body).caseId, "approved");
        body = await api.stopped(MEMBER, runId);
      }
      expect(body.status).toBe("completed");
      const [row] = rowsOf<{ principles_checked: string[] }>(
        await suite.database.db.execute(
          sql`select principles_checked from constitutional_validations where run_id = ${runId} and content_type = 'response'`,
        ),
      );
      // Disabled principles are not applied; one the validator cannot check is not claimed as checked.
      expect(row.principles_checked).toEqual(["disclose_uncertainty"]);
    });

    it("keeps a competitor's name out of the plan, the decision and the answer", async () => {
      const competitor = "Dexcom";
      const set = await put(ADMIN, {
        principles: [
          { id: "cite_sources", description: "Cite everything.", severity: "high" },
          {
            id: "no_competitor_names",
            description: `Never mention ${competitor} by name.`,
            severity: "high",
            check: { kind: "forbidden_phrases", phrases: [competitor] },
          },
        ],
      });
      expect(set.status, JSON.stringify(set.body)).toBe(200);
      expect((set.body.items as Principle[]).find((p) => p.id === "no_competitor_names")).toMatchObject({
        checked: true,
      });
      const goal = `${DEMO_GOAL.replace("our new glucose monitor", `our new glucose monitor, which competes with ${competitor}'s`)}`;
      expect(goal).toContain(competitor);
      const runId = await api.start(MEMBER, { goal, agentId: "fda-regulatory", safetyLevel: "strict" });
      const seen: Record<string, string> = {};
      let body = await api.stopped(MEMBER, runId);
      while (body.status === "interrupted") {
        const waiting = api.waitingOn(body);
        seen[waiting.type] = JSON.stringify(waiting.request);
        await api.decide(waiting.caseId, "approved");
        body = await api.stopped(MEMBER, runId);
      }
      expect(body.status, body.error ?? "").toBe("completed");
      // The run stopped where the principle matters, and said nothing of the competitor there.
      expect(Object.keys(seen)).toEqual(expect.arrayContaining(["plan_approval", "critical_decision", "final_review"]));
      // What the design validates (plan, decision, response) says nothing of the competitor; a tool's
      // arguments and a specialist's task carry the requester's goal as they wrote it.
      for (const type of ["plan_approval", "critical_decision", "final_review"])
        expect(seen[type], type).not.toMatch(new RegExp(competitor, "i"));
      const answer = JSON.parse(seen.final_review).response_text as string;
      expect(answer).toMatch(/\[\d+\]/);
      // It was there to withhold: the plan and the decision each failed the principle and were revised.
      const rows = rowsOf<{ content_type: string; principles_failed: string[]; revision_applied: boolean }>(
        await suite.database.db.execute(
          sql`select content_type, principles_failed, revision_applied from constitutional_validations where run_id = ${runId}`,
        ),
      );
      for (const content of ["plan", "decision"]) {
        const row = rows.find((r) => r.content_type === content);
        expect(row, content).toMatchObject({ revision_applied: true });
        expect(row?.principles_failed, content).toContain("no_competitor_names");
      }
      expect(rows.map((r) => r.content_type)).toContain("response");
    });
  });
}
