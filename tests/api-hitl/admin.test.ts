import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as activateRoute from "@/app/api/hitl/adapters/[adapter]/versions/[version]/activate/route";
import * as versionRoute from "@/app/api/hitl/adapters/[adapter]/versions/[version]/route";
import * as versionsRoute from "@/app/api/hitl/adapters/[adapter]/versions/route";
import * as adaptersRoute from "@/app/api/hitl/adapters/route";
import * as caseRoute from "@/app/api/hitl/cases/[id]/route";
import * as casesRoute from "@/app/api/hitl/cases/route";
import * as driftRoute from "@/app/api/hitl/drift/route";
import * as slaRoute from "@/app/api/hitl/sla-policies/[adapter]/route";
import * as slaListRoute from "@/app/api/hitl/sla-policies/route";
import { DEFAULT_ADAPTERS } from "@/lib/hitl";
import { appTargets } from "../support/databases";
import { seededDatabase } from "../support/seeded";
import { ACME_ADMIN, ADMIN, caseBody, type HitlClient, hitlClient, hitlSnapshot, MEMBER, REVIEWER } from "./support";

const ticketV1 = {
  type: "object",
  properties: { title: { type: "string", minLength: 1 } },
  required: ["title"],
  additionalProperties: false,
};
const ticketV2 = {
  type: "object",
  properties: { title: { type: "string", minLength: 1 }, severity: { enum: ["low", "high"] } },
  required: ["title", "severity"],
  additionalProperties: false,
};

for (const target of appTargets()) {
  describe(`HITL admin API on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });
    const api: HitlClient = hitlClient();

    const submitTicket = (payload: Record<string, unknown>) =>
      api.post(MEMBER, casesRoute.POST, "/api/hitl/cases", caseBody({ adapter_id: "ticket_triage", payload }));

    it("lists the built-in adapters to any member", async () => {
      const res = await api.get(MEMBER, adaptersRoute.GET, "/api/hitl/adapters");
      expect(res.status).toBe(200);
      const names = (res.body.items as { adapter: string }[]).map((a) => a.adapter);
      expect(names).toEqual(expect.arrayContaining([...DEFAULT_ADAPTERS]));
      expect(res.body.items).toEqual(
        expect.arrayContaining([{ adapter: "lgv_troubleshooting", activeVersion: 1, versions: [1], builtIn: true }]),
      );
    });

    it("reads one schema version, stored or built in, for any member", async () => {
      const read = (adapter: string, version: string) =>
        api.get(MEMBER, versionRoute.GET, `/api/hitl/adapters/${adapter}/versions/${version}`, { adapter, version });
      const builtIn = await read("lgv_troubleshooting", "1");
      expect(builtIn.status).toBe(200);
      expect(builtIn.body).toMatchObject({ status: "success", adapter: "lgv_troubleshooting", version: 1 });
      const schema = builtIn.body.jsonSchema as { properties: Record<string, unknown>; required: string[] };
      expect(Object.keys(schema.properties)).toContain("proposed_next_action");
      expect(schema.required).toContain("symptom");
      expect((await read("lgv_troubleshooting", "99")).status).toBe(404);
      expect((await read("no_such_adapter", "1")).status).toBe(404);
      expect((await read("lgv_troubleshooting", "one")).status).toBe(400);
    });

    it("registers and activates adapter schema versions (admin only), and validates new cases against the active one", async () => {
      const path = "/api/hitl/adapters/ticket_triage/versions";
      const before = await hitlSnapshot(suite.database);
      for (const email of [MEMBER, REVIEWER]) {
        const res = await api.post(
          email,
          versionsRoute.POST,
          path,
          { schema_json: ticketV1, activate: true },
          {
            adapter: "ticket_triage",
          },
        );
        expect(res.status).toBe(403);
        expect(res.body).toMatchObject({ status: "error", code: "FORBIDDEN" });
      }
      const badName = await api.post(
        ADMIN,
        versionsRoute.POST,
        "/api/hitl/adapters/Ticket-Triage/versions",
        {
          schema_json: ticketV1,
        },
        { adapter: "Ticket-Triage" },
      );
      expect(badName.status).toBe(400);
      expect(badName.body).toMatchObject({ code: "VALIDATION_FAILED", details: [{ path: "adapter" }] });
      const badSchema = await api.post(
        ADMIN,
        versionsRoute.POST,
        path,
        { schema_json: { type: "no-such-type" } },
        { adapter: "ticket_triage" },
      );
      expect(badSchema.status).toBe(400);
      expect(badSchema.body).toMatchObject({ code: "VALIDATION_FAILED", details: [{ path: "schema_json" }] });
      const notAnObject = await api.post(
        ADMIN,
        versionsRoute.POST,
        path,
        { schema_json: "x" },
        { adapter: "ticket_triage" },
      );
      expect(notAnObject.status).toBe(400);
      expect(await hitlSnapshot(suite.database)).toEqual(before);

      const v1 = await api.post(
        ADMIN,
        versionsRoute.POST,
        path,
        { schema_json: ticketV1, activate: true },
        {
          adapter: "ticket_triage",
        },
      );
      expect(v1.status, JSON.stringify(v1.body)).toBe(201);
      expect(v1.body).toMatchObject({
        status: "success",
        version: { adapter: "ticket_triage", version: 1, active: true },
      });
      const first = await submitTicket({ title: "Printer on fire" });
      expect(first.status).toBe(201);

      const v2 = await api.post(
        ADMIN,
        versionsRoute.POST,
        path,
        { schema_json: ticketV2 },
        { adapter: "ticket_triage" },
      );
      expect(v2.body).toMatchObject({ version: { version: 2, active: false } });
      expect((await submitTicket({ title: "Still v1" })).status).toBe(201);

      const activatePath = "/api/hitl/adapters/ticket_triage/versions/2/activate";
      const asReviewer = await api.post(REVIEWER, activateRoute.POST, activatePath, undefined, {
        adapter: "ticket_triage",
        version: "2",
      });
      expect(asReviewer.status).toBe(403);
      const missing = await api.post(ADMIN, activateRoute.POST, activatePath, undefined, {
        adapter: "ticket_triage",
        version: "9",
      });
      expect(missing.status).toBe(404);
      expect(missing.body).toMatchObject({ status: "not_found", adapter_id: "ticket_triage", schema_version: 9 });
      const badVersion = await api.post(ADMIN, activateRoute.POST, activatePath, undefined, {
        adapter: "ticket_triage",
        version: "two",
      });
      expect(badVersion.status).toBe(400);
      const activated = await api.post(ADMIN, activateRoute.POST, activatePath, undefined, {
        adapter: "ticket_triage",
        version: "2",
      });
      expect(activated.status).toBe(200);
      expect(activated.body).toEqual({ status: "success", adapter: "ticket_triage", active_version: 2 });

      const v1Payload = await submitTicket({ title: "No severity" });
      expect(v1Payload.status).toBe(422);
      expect(v1Payload.body).toMatchObject({
        code: "PAYLOAD_INVALID",
        adapter_id: "ticket_triage",
        schema_version: 2,
      });
      expect((await submitTicket({ title: "With severity", severity: "high" })).status).toBe(201);

      const old = await api.get(REVIEWER, casesRoute.GET, "/api/hitl/cases?old_schema=true&adapter_id=ticket_triage");
      expect(old.body.count).toBe(2);
      const listed = await api.get(MEMBER, adaptersRoute.GET, "/api/hitl/adapters");
      expect(listed.body.items).toEqual(
        expect.arrayContaining([{ adapter: "ticket_triage", activeVersion: 2, versions: [1, 2], builtIn: false }]),
      );
      const id = first.body.caseId as string;
      const read = await api.get(REVIEWER, caseRoute.GET, `/api/hitl/cases/${id}`, { id });
      expect(read.body.case).toMatchObject({ schemaVersion: 1, payload: { title: "Printer on fire" } });
    });

    it("sets SLA policies (admin only, validated) and applies them to new cases", async () => {
      const path = "/api/hitl/sla-policies/lgv_troubleshooting";
      const on = { adapter: "lgv_troubleshooting" };
      const good = { due_hours: 8, calendar: "business", escalate_to: "admin", renotify_hours: 4 };
      const before = await hitlSnapshot(suite.database);
      for (const email of [MEMBER, REVIEWER]) {
        const res = await api.put(email, slaRoute.PUT, path, good, on);
        expect(res.status).toBe(403);
        expect(res.body.code).toBe("FORBIDDEN");
      }
      const invalid: [Record<string, unknown>, string][] = [
        [{ ...good, due_hours: 0 }, "due_hours"],
        [{ ...good, due_hours: 1.5 }, "due_hours"],
        [{ ...good, due_hours: 9000 }, "due_hours"],
        [{ ...good, calendar: "lunar" }, "calendar"],
        [{ ...good, escalate_to: "" }, "escalate_to"],
        [{ ...good, renotify_hours: -1 }, "renotify_hours"],
        [{ due_hours: 8, calendar: "business" }, "escalate_to"],
        [{ ...good, dueHours: 8 }, ""],
      ];
      for (const [body, field] of invalid) {
        const res = await api.put(ADMIN, slaRoute.PUT, path, body, on);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect((res.body.details as { path: string }[]).map((d) => d.path)).toContain(field);
      }
      const unknown = await api.put(ADMIN, slaRoute.PUT, "/api/hitl/sla-policies/nope", good, { adapter: "nope" });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toMatchObject({ status: "error", code: "ADAPTER_NOT_FOUND" });
      expect(await hitlSnapshot(suite.database)).toEqual(before);

      const set = await api.put(ADMIN, slaRoute.PUT, path, good, on);
      expect(set.status, JSON.stringify(set.body)).toBe(200);
      expect(set.body).toEqual({
        status: "success",
        policy: {
          adapter: "lgv_troubleshooting",
          dueHours: 8,
          calendar: "business",
          escalateTo: "admin",
          renotifyHours: 4,
        },
      });
      const replaced = await api.put(
        ADMIN,
        slaRoute.PUT,
        path,
        { ...good, calendar: "calendar", renotify_hours: null },
        on,
      );
      expect(replaced.body.policy).toMatchObject({ calendar: "calendar", renotifyHours: null });
      const listed = await api.get(MEMBER, slaListRoute.GET, "/api/hitl/sla-policies");
      expect(listed.body).toMatchObject({
        status: "success",
        count: 1,
        items: [{ adapter: "lgv_troubleshooting", dueHours: 8, calendar: "calendar" }],
      });
      const acme = await api.get(ACME_ADMIN, slaListRoute.GET, "/api/hitl/sla-policies");
      expect(acme.body).toEqual({ status: "success", count: 0, items: [] });

      const submitted = await api.post(MEMBER, casesRoute.POST, "/api/hitl/cases", caseBody());
      const id = submitted.body.caseId as string;
      const read = await api.get(MEMBER, caseRoute.GET, `/api/hitl/cases/${id}`, { id });
      const state = (read.body.case as { state: { dueAt: number; createdAt: number } }).state;
      expect(state.dueAt - state.createdAt).toBe(8 * 3_600_000);
    });

    it("reports projection drift to admins only", async () => {
      for (const email of [MEMBER, REVIEWER]) {
        const res = await api.get(email, driftRoute.GET, "/api/hitl/drift");
        expect(res.status).toBe(403);
        expect(res.body.code).toBe("FORBIDDEN");
      }
      const clean = await api.get(ADMIN, driftRoute.GET, "/api/hitl/drift");
      expect(clean.status).toBe(200);
      expect(clean.body).toMatchObject({ status: "success", drifted: false, cases: [] });
      expect(clean.body.liveHash).toBe(clean.body.rebuiltHash);

      const submitted = await api.post(MEMBER, casesRoute.POST, "/api/hitl/cases", caseBody());
      const id = submitted.body.caseId as string;
      // Someone edits the projection by hand (as the owner, which the app role cannot do).
      await suite.database.db.execute(sql`update hitl_state set priority = 'critical' where case_id = ${id}`);
      const drifted = await api.get(ADMIN, driftRoute.GET, "/api/hitl/drift");
      expect(drifted.body).toMatchObject({ status: "success", drifted: true, cases: [id] });
      const acme = await api.get(ACME_ADMIN, driftRoute.GET, "/api/hitl/drift");
      expect(acme.body).toMatchObject({ drifted: false, cases: [] });
      await suite.database.db.execute(sql`update hitl_state set priority = 'normal' where case_id = ${id}`);
    });
  });
}
