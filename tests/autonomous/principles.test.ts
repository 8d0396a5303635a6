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
      expect((await client.get(MEMBER, principlesRoute.GET, "/api/principles")).body.defaults).toBe(true);

      const set = await put(ADMIN, {
        principles: [
          { id: "cite_sources", description: "Cite everything.", severity: "high", enabled: false },
          { id: "disclose_uncertainty", description: "Say when evidence is weak.", severity: "medium" },
          { id: "house_style", description: "Write in the house style.", severity: "low" },
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
          sql`select principles_checked from constitutional_validations where run_id = ${runId}`,
        ),
      );
      // Disabled principles are not applied; one the validator cannot check is not claimed as checked.
      expect(row.principles_checked).toEqual(["disclose_uncertainty"]);
    });
  });
}
