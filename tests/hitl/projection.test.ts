import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { schema } from "@/lib/db";
import {
  getCase,
  projectionDrift,
  provideClarification,
  rebuildProjection,
  recordDecision,
  registerDefaultAdapters,
  requestClarification,
} from "@/lib/hitl";
import { appTargets } from "../support/databases";
import { seededDatabase } from "../support/seeded";
import { actors, rid, submitLgv } from "./support";

for (const target of appTargets()) {
  describe(`HITL projection on ${target.name}`, () => {
    const suite = seededDatabase(target);
    const demo = () => actors(suite.tenants, "demo");
    const scope = () => ({ tenantId: suite.tenants.demo });

    beforeAll(async () => {
      await registerDefaultAdapters(scope());
      await registerDefaultAdapters({ tenantId: suite.tenants.acme });
    });

    it("rebuilds exactly the live projection, and detects and repairs a tampered row", async () => {
      const a = await submitLgv(demo().member);
      const b = await submitLgv(demo().member);
      const c = await submitLgv(demo().member);
      await requestClarification(demo().reviewer, a.caseId, { requestId: rid(), question: "Which site?" });
      await provideClarification(demo().member, a.caseId, { requestId: rid(), answer: "Lyon" });
      await recordDecision(demo().reviewer, a.caseId, { requestId: rid(), outcome: "approved", modifications: {} });
      await recordDecision(demo().reviewer, b.caseId, { requestId: rid(), outcome: "rejected" });
      await requestClarification(demo().reviewer, c.caseId, { requestId: rid(), question: "Logs?" });
      // A case of another tenant is not part of this tenant's projection.
      await submitLgv(actors(suite.tenants, "acme").member);

      const clean = await projectionDrift(scope());
      expect(clean.drifted).toBe(false);
      expect(clean.liveHash).toBe(clean.rebuiltHash);
      expect(clean.cases).toEqual([]);
      expect(await rebuildProjection(scope())).toEqual({ cases: 3, repaired: [] });

      // Someone edits the projection behind the log's back (owner connection).
      const before = await getCase(demo().reviewer, b.caseId);
      await suite.database.db.execute(
        sql`update ${schema.hitlState} set current_state = 'pending', active_decision_outcome = null where case_id = ${b.caseId}`,
      );
      const drift = await projectionDrift(scope());
      expect(drift.drifted).toBe(true);
      expect(drift.liveHash).not.toBe(drift.rebuiltHash);
      expect(drift.cases).toEqual([b.caseId]);
      expect(drift.rebuiltHash).toBe(clean.rebuiltHash);

      expect(await rebuildProjection(scope())).toEqual({ cases: 3, repaired: [b.caseId] });
      expect((await projectionDrift(scope())).drifted).toBe(false);
      expect(await getCase(demo().reviewer, b.caseId)).toEqual(before);
    });

    it("recreates a missing projection row", async () => {
      const d = await submitLgv(demo().member);
      await suite.database.db.execute(sql`delete from ${schema.hitlState} where case_id = ${d.caseId}`);
      const drift = await projectionDrift(scope());
      expect(drift).toMatchObject({ drifted: true, cases: [d.caseId] });
      const rebuilt = await rebuildProjection(scope());
      expect(rebuilt.repaired).toEqual([d.caseId]);
      expect((await getCase(demo().reviewer, d.caseId)).state.state).toBe("pending");
    });
  });
}
