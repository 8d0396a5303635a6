import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import * as reportRoute from "@/app/api/runs/[id]/report/route";
import { ACME_MEMBER, hitlClient, MEMBER } from "../api-hitl/support";
import { autonomousApi, DEMO_GOAL } from "../autonomous/support";
import { appTargets } from "../support/databases";
import { seededDatabase } from "../support/seeded";

// GET /api/runs/{id}/report refuses in the documented shape before it writes any file. A run
// with a final report needs the deep-research workflow itself; the downloads' content is covered
// by the export's unit tests and the research e2e spec.

for (const target of appTargets()) {
  describe(`the research report download's refusals on ${target.name}`, () => {
    seededDatabase(target);
    const client = hitlClient();
    const api = autonomousApi(client);
    const report = (email: string, id: string, query: string) =>
      client.get(email, reportRoute.GET, `/api/runs/${id}/report${query}`, { id });

    it("answers 409 for a run that is not deep-research, 400 for a bad format or id, 404 for a run the caller cannot see", async () => {
      const runId = await api.start(MEMBER, { goal: DEMO_GOAL, agentId: "fda-regulatory", safetyLevel: "strict" });
      await api.stopped(MEMBER, runId);

      const notResearch = await report(MEMBER, runId, "?format=markdown");
      expect(notResearch.status).toBe(409);
      expect(notResearch.body).toMatchObject({ code: "NOT_A_RESEARCH_RUN" });
      expect(String(notResearch.body.message)).toContain("deep-research");

      for (const query of ["?format=docx", "", "?format=PDF"]) {
        const bad = await report(MEMBER, runId, query);
        expect(bad.status, query).toBe(400);
        expect(bad.body.code, query).toBe("VALIDATION_FAILED");
      }
      const badId = await report(MEMBER, "not-a-run", "?format=pdf");
      expect(badId.status).toBe(400);

      // Another tenant's member: the run does not exist for them, whatever the format.
      for (const format of ["markdown", "pdf"]) {
        const foreign = await report(ACME_MEMBER, runId, `?format=${format}`);
        expect(foreign.status).toBe(404);
        expect(foreign.body.status).toBe("not_found");
      }
      const missing = await report(MEMBER, randomUUID(), "?format=markdown");
      expect(missing.status).toBe(404);
    });
  });
}
