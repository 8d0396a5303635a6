import { readFileSync } from "node:fs";
import path from "node:path";
import { and, asc, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as versionsRoute from "@/app/api/hitl/adapters/[adapter]/versions/route";
import { schema } from "@/lib/db";
import {
  activateAdapterVersion,
  getCase,
  listAdapters,
  registerAdapterVersion,
  registerDefaultAdapters,
  submitCase,
} from "@/lib/hitl";
import { hitlClient, MEMBER } from "../api-hitl/support";
import { appTargets } from "../support/databases";
import { seededDatabase } from "../support/seeded";
import { actors, lgvPayload, refusal, rid, submitLgv } from "./support";

const reg = schema.hitlSchemaRegistry;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const ticket = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: "object",
  properties,
  required,
  additionalProperties: false,
});

for (const target of appTargets()) {
  describe(`HITL schema registry on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });
    const demo = () => actors(suite.tenants, "demo");
    const acme = () => actors(suite.tenants, "acme");

    /** Every registry row of every tenant, read as the owner. */
    const registryRows = () =>
      suite.database.db.select().from(reg).orderBy(asc(reg.tenantId), asc(reg.adapter), asc(reg.version));

    const history = async (tenantId: string, adapter: string) => {
      const listed = await listAdapters({ tenantId }, { detail: true });
      return listed.find((a) => a.adapter === adapter)?.versionHistory;
    };

    it("records when a version became active and keeps it after it is deactivated", async () => {
      const scope = { tenantId: suite.tenants.demo };
      const adapter = "ticket_intake";
      const startedAt = Date.now();
      const v1 = await registerAdapterVersion(scope, adapter, ticket({ title: { type: "string" } }), {
        activate: true,
      });
      expect(v1).toMatchObject({ version: 1, active: true });
      expect(v1.activatedAt).toBe(v1.createdAt);
      expect(v1.activatedAt).toBeGreaterThanOrEqual(startedAt);
      const v2 = await registerAdapterVersion(
        scope,
        adapter,
        ticket({ title: { type: "string" }, due: { type: "string" } }),
      );
      expect(v2).toMatchObject({ version: 2, active: false, activatedAt: null });

      await pause(5);
      const activated = await activateAdapterVersion(scope, adapter, 2);
      expect(activated).toMatchObject({ version: 2, active: true });
      expect(activated.activatedAt).toBeGreaterThan(v1.activatedAt as number);
      expect(await history(scope.tenantId, adapter)).toEqual([
        { version: 1, active: false, createdAt: v1.createdAt, activatedAt: v1.activatedAt },
        { version: 2, active: true, createdAt: v2.createdAt, activatedAt: activated.activatedAt },
      ]);

      // Activating the active version again is not a new activation.
      await pause(5);
      expect(await activateAdapterVersion(scope, adapter, 2)).toEqual(activated);

      // Going back to version 1 stamps it again; version 2 keeps when it was last activated.
      const back = await activateAdapterVersion(scope, adapter, 1);
      expect(back.activatedAt).toBeGreaterThan(activated.activatedAt as number);
      expect(await history(scope.tenantId, adapter)).toEqual([
        { version: 1, active: true, createdAt: v1.createdAt, activatedAt: back.activatedAt },
        { version: 2, active: false, createdAt: v2.createdAt, activatedAt: activated.activatedAt },
      ]);

      // Re-registering the newest schema with activate (a retry) activates it and stamps it.
      await pause(5);
      const retried = await registerAdapterVersion(scope, adapter, { ...v2.jsonSchema }, { activate: true });
      expect(retried).toMatchObject({ id: v2.id, version: 2, active: true });
      expect(retried.activatedAt).toBeGreaterThan(back.activatedAt as number);

      // Built-in adapters get version 1 active, stamped when it was added.
      await registerDefaultAdapters(scope);
      const [builtIn] = (await history(scope.tenantId, "plan_approval")) ?? [];
      expect(builtIn).toMatchObject({ version: 1, active: true });
      expect(builtIn.activatedAt).toBe(builtIn.createdAt);

      // The REST listing of an adapter's versions carries the times; the plain list keeps its shape.
      const api = hitlClient();
      const res = await api.get(MEMBER, versionsRoute.GET, `/api/hitl/adapters/${adapter}/versions`, { adapter });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        status: "success",
        adapter,
        builtIn: false,
        activeVersion: 2,
        count: 2,
        items: [
          { version: 1, active: false, createdAt: v1.createdAt, activatedAt: back.activatedAt },
          { version: 2, active: true, createdAt: v2.createdAt, activatedAt: retried.activatedAt },
        ],
      });
      const missing = await api.get(MEMBER, versionsRoute.GET, "/api/hitl/adapters/no_such_adapter/versions", {
        adapter: "no_such_adapter",
      });
      expect(missing.status).toBe(404);
      const plain = (await listAdapters(scope)).find((a) => a.adapter === adapter);
      expect(plain).toEqual({ adapter, activeVersion: 2, versions: [1, 2], builtIn: false });
    });

    it("the migration's backfill stamps active versions with their creation time and leaves the rest", async () => {
      const scope = { tenantId: suite.tenants.demo };
      const adapter = "ticket_backfill";
      const v1 = await registerAdapterVersion(scope, adapter, ticket({ a: { type: "string" } }), { activate: true });
      const v2 = await registerAdapterVersion(scope, adapter, ticket({ b: { type: "string" } }));
      const kept = await registerAdapterVersion(scope, "ticket_kept", ticket({ c: { type: "string" } }), {
        activate: true,
      });
      // As before the column existed: no activation time anywhere for this adapter.
      await suite.database.db.update(reg).set({ activatedAt: null }).where(eq(reg.adapter, adapter));
      await suite.database.db.update(reg).set({ activatedAt: 42 }).where(eq(reg.id, kept.id));
      const file = path.resolve(import.meta.dirname, "../../drizzle/0019_hitl_registry_activation.sql");
      const backfill = readFileSync(file, "utf8")
        .split("--> statement-breakpoint")
        .map((s) => s.trim())
        .filter((s) => s.startsWith("UPDATE"));
      expect(backfill).toHaveLength(1);
      // Run on today's table, whose columns 0021 renamed to the design's names.
      const renamed: Record<string, string> = {
        '"activated_at"': '"activated_at_ms"',
        '"created_at"': '"created_at_ms"',
        '"active"': '"is_active"',
      };
      const statement = backfill[0].replace(/"(activated_at|created_at|active)"/g, (name) => renamed[name]);
      expect(statement).toContain('"activated_at_ms" = "created_at_ms"');
      await suite.database.db.execute(sql.raw(statement));
      const rows = await suite.database.db
        .select({ id: reg.id, activatedAt: reg.activatedAt })
        .from(reg)
        .where(and(eq(reg.tenantId, scope.tenantId)));
      const byId = new Map(rows.map((r) => [r.id, r.activatedAt]));
      expect(byId.get(v1.id)).toBe(v1.createdAt);
      expect(byId.get(v2.id)).toBeNull();
      expect(byId.get(kept.id)).toBe(42);
    });

    it("reads a version 1 LGV case as version 2 through the built-in upcaster once version 2 is active", async () => {
      const scope = { tenantId: suite.tenants.acme };
      const old = await submitLgv(acme().member);
      const before = await getCase(acme().reviewer, old.caseId);
      expect(before).toMatchObject({
        schemaVersion: 1,
        payloadVersion: 1,
        payload: { proposed_next_action: "Re-survey reflectors in aisle 4" },
      });

      // Version 2 is built in: activating it adds it to the tenant's registry.
      expect((await listAdapters(scope)).find((a) => a.adapter === "lgv_troubleshooting")?.versions).toEqual([1]);
      const v2 = await activateAdapterVersion(scope, "lgv_troubleshooting", 2);
      expect(v2).toMatchObject({ version: 2, active: true });
      expect((await listAdapters(scope)).find((a) => a.adapter === "lgv_troubleshooting")).toMatchObject({
        activeVersion: 2,
        versions: [1, 2],
      });

      const read = await getCase(acme().reviewer, old.caseId);
      expect(read.schemaVersion).toBe(1);
      expect(read.payloadVersion).toBe(2);
      const { proposed_next_action: action, ...unchanged } = lgvPayload();
      expect(read.payload).toEqual({ ...unchanged, recommended_action: action });
      // The stored payload is never rewritten.
      const [stored] = await suite.database.db
        .select({ payload: schema.hitlCases.payload })
        .from(schema.hitlCases)
        .where(eq(schema.hitlCases.id, old.caseId));
      expect(stored.payload).toEqual(lgvPayload());

      // New cases are validated against version 2: the old field name is refused, the new one taken.
      expect(await refusal(submitLgv(acme().member))).toMatchObject({
        code: "PAYLOAD_INVALID",
        fields: { adapter_id: "lgv_troubleshooting", schema_version: 2 },
      });
      const fresh = await submitCase(acme().member, {
        adapter: "lgv_troubleshooting",
        payload: { ...unchanged, recommended_action: "Replace the reflector in aisle 4" },
        requestId: rid(),
      });
      const freshView = await getCase(acme().reviewer, fresh.caseId);
      expect(freshView).toMatchObject({ schemaVersion: 2, payloadVersion: 2 });
      expect(freshView.summary).toContain("Replace the reflector in aisle 4");

      // Back on version 1, the old case reads as submitted again.
      await activateAdapterVersion(scope, "lgv_troubleshooting", 1);
      expect(await getCase(acme().reviewer, old.caseId)).toMatchObject({ payloadVersion: 1, payload: lgvPayload() });
      // A version the code does not define is still unknown.
      expect(await refusal(activateAdapterVersion(scope, "lgv_troubleshooting", 3))).toMatchObject({
        name: "NotFoundError",
      });
    });

    it("refuses a pattern that can backtrack catastrophically, and writes nothing", async () => {
      const scope = { tenantId: suite.tenants.demo };
      const before = await registryRows();
      const schemas: [string, Record<string, unknown>][] = [
        ["^(a+)+$", ticket({ code: { type: "string", maxLength: 100, pattern: "^(a+)+$" } })],
        [
          "^(\\w+\\s?)*$",
          ticket({ tags: { type: "array", items: { anyOf: [{ type: "string", pattern: "^(\\w+\\s?)*$" }] } } }),
        ],
        ["^(a|aa)+$", ticket({ labels: { type: "object", patternProperties: { "^(a|aa)+$": { type: "string" } } } })],
      ];
      for (const [pattern, jsonSchema] of schemas) {
        for (const adapter of ["ticket_patterns", "lgv_troubleshooting"]) {
          const refused = await refusal(registerAdapterVersion(scope, adapter, jsonSchema, { activate: true }));
          expect(refused).toMatchObject({ kind: "invalid", code: "VALIDATION_FAILED" });
          const [issue] = refused.details as { path: string; message: string }[];
          expect(issue.path).toBe("schema_json");
          expect(issue.message).toContain(JSON.stringify(pattern));
          expect(issue.message).toContain("backtrack catastrophically");
        }
      }
      expect(await registryRows()).toEqual(before);
    });

    it("refuses patterns RE2 cannot run (backreferences, lookarounds) and invalid ones, naming them", async () => {
      const scope = { tenantId: suite.tenants.demo };
      const before = await registryRows();
      for (const pattern of [
        "^(a)\\1$",
        "^(?<word>\\w+) \\k<word>$",
        "(a)(b)(c)(d)(e)(f)(g)(h)\\8",
        "^(?=.*\\d).{8,}$",
        "(?<!x)y",
      ]) {
        const refused = await refusal(
          registerAdapterVersion(scope, "ticket_patterns", ticket({ code: { type: "string", pattern } })),
        );
        expect(refused).toMatchObject({ kind: "invalid", code: "VALIDATION_FAILED" });
        const [issue] = refused.details as { path: string; message: string }[];
        expect(issue).toMatchObject({ path: "schema_json" });
        expect(issue.message).toContain(`The pattern ${JSON.stringify(pattern)} cannot be used`);
        expect(issue.message).toContain("backreferences or lookarounds");
      }
      const invalid = await refusal(
        registerAdapterVersion(scope, "ticket_patterns", ticket({ code: { type: "string", pattern: "(" } })),
      );
      expect((invalid.details as { message: string }[])[0].message).toContain(
        'The pattern "(" is not a valid regular expression',
      );
      expect(await registryRows()).toEqual(before);
    });

    it("refuses uniqueItems over unbounded arrays of non-scalar items", async () => {
      const scope = { tenantId: suite.tenants.demo };
      const before = await registryRows();
      for (const list of [
        { type: "array", uniqueItems: true },
        { type: "array", uniqueItems: true, items: { type: "object" }, maxItems: 5000 },
      ]) {
        const refused = await refusal(registerAdapterVersion(scope, "ticket_lists", ticket({ list })));
        expect(refused.details).toEqual([
          {
            path: "schema_json",
            message: expect.stringContaining("uniqueItems over items that are not typed as scalars"),
          },
        ]);
      }
      expect(await registryRows()).toEqual(before);
      const bounded = await registerAdapterVersion(
        scope,
        "ticket_lists",
        ticket({
          list: { type: "array", uniqueItems: true, items: { type: "object" }, maxItems: 100 },
          tags: { type: "array", uniqueItems: true, items: { type: "string" } },
        }),
      );
      expect(bounded.version).toBe(1);
    });

    it("validates payloads against a normal pattern: a match is accepted, a non-match refused", async () => {
      const scope = { tenantId: suite.tenants.demo };
      await registerAdapterVersion(
        scope,
        "ticket_ref",
        ticket(
          {
            ticket: { type: "string", maxLength: 40, pattern: "^[A-Z]{2,5}-\\d{1,6}$" },
            labels: {
              type: "object",
              patternProperties: { "^x-[a-z]+$": { type: "string" } },
              additionalProperties: false,
            },
          },
          ["ticket"],
        ),
        { activate: true },
      );
      const submit = (payload: Record<string, unknown>) =>
        submitCase(demo().member, { adapter: "ticket_ref", payload, requestId: rid() });
      const ok = await submit({ ticket: "OPS-42", labels: { "x-team": "fleet" } });
      expect((await getCase(demo().reviewer, ok.caseId)).payload).toEqual({
        ticket: "OPS-42",
        labels: { "x-team": "fleet" },
      });

      const bad = await refusal(submit({ ticket: "ops-42" }));
      expect(bad).toMatchObject({
        kind: "unprocessable",
        code: "PAYLOAD_INVALID",
        fields: { adapter_id: "ticket_ref" },
      });
      expect(bad.details as unknown[]).toEqual([expect.objectContaining({ path: "/ticket", keyword: "pattern" })]);
      const badLabel = await refusal(submit({ ticket: "OPS-7", labels: { team: "fleet" } }));
      expect(badLabel.details as unknown[]).toEqual([
        expect.objectContaining({ path: "/labels", keyword: "additionalProperties" }),
      ]);
    });

    it("matches patterns in linear time: one that is quadratic for a backtracking engine stays fast", async () => {
      const scope = { tenantId: suite.tenants.demo };
      // Accepted (polynomial, not exponential), but a backtracking RegExp needs ~n²/2 steps on
      // n spaces followed by a non-space: about 15 s for the 200,000 below.
      await registerAdapterVersion(scope, "ticket_note", ticket({ note: { type: "string", pattern: "\\s+$" } }), {
        activate: true,
      });
      const submit = (note: string) =>
        submitCase(demo().member, { adapter: "ticket_note", payload: { note }, requestId: rid() });
      const startedAt = performance.now();
      expect(await refusal(submit(`${" ".repeat(200_000)}x`))).toMatchObject({ code: "PAYLOAD_INVALID" });
      expect(performance.now() - startedAt).toBeLessThan(2000);
      expect((await submit(`${"x".repeat(1000)} `)).state).toBe("pending");
    });
  });
}
