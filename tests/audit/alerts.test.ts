import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as alertRoute from "@/app/api/audit/alerts/[rule]/route";
import * as alertsRoute from "@/app/api/audit/alerts/route";
import { evaluateAlerts, setAlertSetting } from "@/lib/audit";
import { ALERT_RULE_DEFAULTS, type AlertRule, type AuditAlert } from "@/lib/audit/contract";
import { rowsOf, schema } from "@/lib/db";
import { drainTrace, recordTrace } from "@/lib/trace";
import { ACME_ADMIN, ADMIN, hitlClient, MEMBER, REVIEWER } from "../api-hitl/support";
import { appTargets } from "../support/databases";
import { seededDatabase, userIdOf } from "../support/seeded";

// Every fixture is placed relative to NOW, on both sides of each window's edges; the expected
// figures are computed here from the fixture lists, not by the query under test.
const NOW = Date.parse("2022-03-01T12:00:00.000Z");
const MIN = 60_000;
const at = (offsetMs: number) => new Date(NOW + offsetMs);
/** Inside a window of `minutes` ending at `now`: after its start, up to and including its end. */
const inWindow = (t: number, minutes: number, now = NOW) => t > now - minutes * MIN && t <= now;

const RUNS: { finishedAt: number | null; status: "completed" | "failed" | "cancelled" | "running" }[] = [
  { finishedAt: -15 * MIN, status: "failed" }, // on the window's start: outside
  { finishedAt: -15 * MIN + 1, status: "failed" },
  { finishedAt: -5 * MIN, status: "cancelled" },
  { finishedAt: -1 * MIN, status: "completed" },
  { finishedAt: 0, status: "completed" }, // on the window's end: inside
  { finishedAt: 1, status: "failed" }, // after now: outside
  { finishedAt: -40 * MIN, status: "failed" },
  { finishedAt: null, status: "running" },
];

const CHECKPOINTS: { status: string; decidedAt: number | null; escalatedAt: number | null }[] = [
  { status: "timeout", decidedAt: -1 * MIN, escalatedAt: null },
  { status: "approved", decidedAt: -2 * MIN, escalatedAt: null },
  { status: "rejected", decidedAt: -5 * MIN, escalatedAt: null }, // on the start: outside
  { status: "skipped", decidedAt: -1 * MIN, escalatedAt: null }, // nobody waited: never counted
  { status: "pending", decidedAt: null, escalatedAt: -MIN / 2 }, // escalated on timeout, still waiting
  { status: "approved", decidedAt: -3 * MIN, escalatedAt: -4 * MIN }, // escalated, then decided
  { status: "pending", decidedAt: null, escalatedAt: null },
  { status: "timeout", decidedAt: -6 * MIN, escalatedAt: null },
  { status: "modified", decidedAt: -4 * MIN + 1, escalatedAt: null },
];

const PHI_IN_HOUR = 101;

function expectedTimeoutRate(minutes: number): number {
  let ended = 0;
  let timedOut = 0;
  for (const c of CHECKPOINTS) {
    if (c.status === "skipped") continue;
    const decided = c.status !== "pending" && c.decidedAt !== null && inWindow(NOW + c.decidedAt, minutes);
    const escalated = c.escalatedAt !== null && inWindow(NOW + c.escalatedAt, minutes);
    if (decided || escalated) ended++;
    if ((decided && c.status === "timeout") || escalated) timedOut++;
  }
  return timedOut / ended;
}

function expectedFailureRate(minutes: number): number {
  const finished = RUNS.filter(
    (r) => r.status !== "running" && r.finishedAt !== null && inWindow(NOW + r.finishedAt, minutes),
  );
  return finished.filter((r) => r.status === "failed").length / finished.length;
}

for (const target of appTargets()) {
  describe(`audit alerts on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });
    const client = hitlClient();
    const demo = () => ({ tenantId: suite.tenants.demo });
    const acme = () => ({ tenantId: suite.tenants.acme });

    async function insertRun(tenantId: string, status: string, finishedAt: Date | null) {
      const id = randomUUID();
      await suite.database.db.insert(schema.runs).values({
        id,
        tenantId,
        workflow: "autonomous",
        threadId: `alerts-${id}`,
        status: status as "completed",
        createdBy: "alerts-fixture",
        createdAt: new Date(NOW - 3_600_000),
        finishedAt,
        // A run still running holds a lease, so recovery leaves this fixture alone.
        ...(status === "running"
          ? { leaseOwner: "alerts-fixture", leaseExpiresAt: new Date("2100-01-01T00:00:00Z") }
          : {}),
      });
      return id;
    }

    let made: Promise<void> | undefined;
    const fixture = () => {
      made ??= makeFixture();
      return made;
    };

    async function makeFixture() {
      const tenantId = suite.tenants.demo;
      for (const r of RUNS) await insertRun(tenantId, r.status, r.finishedAt === null ? null : at(r.finishedAt));
      // Acme's failures inside the same windows are not demo's.
      for (let i = 0; i < 3; i++) await insertRun(suite.tenants.acme, "failed", at(-MIN));
      const runId = await insertRun(tenantId, "completed", at(-100 * MIN));
      await suite.database.db.insert(schema.hitlCheckpoints).values(
        CHECKPOINTS.map((c, i) => ({
          tenantId,
          checkpointId: `alerts-cp-${i}`,
          runId,
          interruptId: `alerts-int-${i}`,
          caseId: `alerts-case-${i}`,
          sessionId: "alerts-session",
          requestId: `alerts-req-${i}`,
          userId: "alerts-fixture",
          checkpointType: "plan_approval",
          nodeName: "plan",
          requestData: {},
          riskLevel: "low",
          approvalStatus: c.status as "approved",
          approvalTimestamp: c.decidedAt === null ? null : at(c.decidedAt),
          onTimeout: "reject",
          createdAt: at(-30 * MIN),
          expiresAt: at(-25 * MIN),
          metadata: c.escalatedAt === null ? {} : { timeout_escalated_at: at(c.escalatedAt).toISOString() },
        })),
      );
      const phi = { phiAccessed: true, phiFields: ["patient_name"], dataClassification: "phi" as const };
      await recordTrace(demo(), [
        ...Array.from({ length: PHI_IN_HOUR }, (_, i) => ({
          eventType: "tool_result" as const,
          sessionId: "alerts-session",
          occurredAt: at(-59 * MIN + i * 1000),
          ...phi,
        })),
        { eventType: "tool_result", sessionId: "alerts-session", occurredAt: at(-60 * MIN), ...phi },
        { eventType: "tool_result", sessionId: "alerts-session", occurredAt: at(1), ...phi },
        ...Array.from({ length: 5 }, () => ({
          eventType: "llm_call" as const,
          sessionId: "alerts-session",
          tokensUsed: 100,
          occurredAt: at(-10 * MIN),
        })),
        { eventType: "llm_call", sessionId: "alerts-session", occurredAt: at(-1440 * MIN) },
      ]);
      await recordTrace(acme(), [{ eventType: "tool_result", occurredAt: at(-MIN), ...phi }]);
      await drainTrace();
    }

    const ruleOf = (alerts: AuditAlert[], rule: AlertRule) => {
      const found = alerts.find((a) => a.rule === rule);
      if (!found) throw new Error(`no ${rule}`);
      return found;
    };

    /** The demo tenant's trace bytes in a window, summed here over the rows the test selects by time. */
    async function traceBytes(tenantId: string, minutes: number): Promise<number> {
      const rows = rowsOf<{ at: Date | string; bytes: number }>(
        await suite.database.db.execute(sql`select event_timestamp as at, pg_column_size(t.*)::int as bytes
          from execution_trace t where tenant_id = ${tenantId}`),
      );
      return rows
        .filter((r) => inWindow(new Date(r.at).getTime(), minutes))
        .reduce((sum, r) => sum + Number(r.bytes), 0);
    }

    async function openRows(tenantId: string, rule: AlertRule) {
      return rowsOf<{ id: string; fired_at: Date | string; resolved_at: Date | string | null; value: string }>(
        await suite.database.db.execute(sql`select id, fired_at, resolved_at, value::text from alert_history
          where tenant_id = ${tenantId} and rule = ${rule} order by fired_at, id`),
      );
    }

    it("measures each rule over its window from the database, with the design's defaults", async () => {
      await fixture();
      const { alerts, evaluatedAt } = await evaluateAlerts(demo(), new Date(NOW));
      expect(evaluatedAt).toBe(new Date(NOW).toISOString());

      const timeouts = ruleOf(alerts, "checkpoint_timeout_rate");
      expect(timeouts).toMatchObject({ threshold: 0.1, windowMinutes: 5, severity: "warning", customized: false });
      expect(timeouts.value).toBeCloseTo(expectedTimeoutRate(5), 10);
      expect(timeouts.sample).toBe(5);
      expect(timeouts.state).toBe("firing");

      const failures = ruleOf(alerts, "run_failure_rate");
      expect(failures).toMatchObject({ threshold: 0.05, windowMinutes: 15, severity: "warning" });
      expect(failures.value).toBeCloseTo(expectedFailureRate(15), 10);
      expect(failures.sample).toBe(4);
      expect(failures.state).toBe("firing");

      const phi = ruleOf(alerts, "phi_access_spike");
      expect(phi).toMatchObject({ threshold: 100, windowMinutes: 60, severity: "critical" });
      expect(phi.value).toBe(PHI_IN_HOUR);
      expect(phi.state).toBe("firing");

      const storage = ruleOf(alerts, "trace_storage_growth");
      const bytes = await traceBytes(suite.tenants.demo, 1440);
      expect(bytes).toBeGreaterThan(0);
      expect(storage).toMatchObject({ windowMinutes: 1440, severity: "info", value: bytes, state: "ok" });
      expect(storage.threshold).toBe(ALERT_RULE_DEFAULTS.trace_storage_growth.threshold);

      // Acme's own figures: its three failures, its one PHI event, none of demo's.
      const ofAcme = (await evaluateAlerts(acme(), new Date(NOW))).alerts;
      expect(ruleOf(ofAcme, "run_failure_rate")).toMatchObject({ value: 1, sample: 3 });
      expect(ruleOf(ofAcme, "phi_access_spike")).toMatchObject({ value: 1, state: "ok" });
      expect(ruleOf(ofAcme, "checkpoint_timeout_rate")).toMatchObject({ value: null, sample: 0, state: "ok" });
    });

    it("opens one history entry per firing rule, however often or concurrently it is evaluated, and resolves it", async () => {
      await fixture();
      const tenantId = suite.tenants.demo;
      await Promise.all([1, 2, 3, 4].map(() => evaluateAlerts(demo(), new Date(NOW))));
      await evaluateAlerts(demo(), new Date(NOW + 1000));
      const fired = await openRows(tenantId, "run_failure_rate");
      expect(fired).toHaveLength(1);
      expect(new Date(fired[0].fired_at).getTime()).toBe(NOW);
      expect(Number(fired[0].value)).toBeCloseTo(expectedFailureRate(15), 6);
      expect(fired[0].resolved_at).toBeNull();

      // Twenty minutes on, only a completed run finished in the window: the rule resolves.
      const later = NOW + 20 * MIN;
      await insertRun(tenantId, "completed", new Date(later - MIN));
      const { alerts } = await evaluateAlerts(demo(), new Date(later));
      expect(ruleOf(alerts, "run_failure_rate")).toMatchObject({ value: 0, sample: 1, state: "ok", firingSince: null });
      const resolved = await openRows(tenantId, "run_failure_rate");
      expect(resolved).toHaveLength(1);
      expect(new Date(resolved[0].resolved_at ?? 0).getTime()).toBe(later);
      expect(ruleOf(alerts, "run_failure_rate").history[0]).toMatchObject({
        id: resolved[0].id,
        resolvedAt: new Date(later).toISOString(),
        threshold: 0.05,
        windowMinutes: 15,
      });
      await evaluateAlerts(demo(), new Date(later + 1000));
      expect(await openRows(tenantId, "run_failure_rate")).toHaveLength(1);

      // Back at NOW the rule fires again: a second entry, the first one stays resolved.
      const again = await evaluateAlerts(demo(), new Date(NOW));
      expect(ruleOf(again.alerts, "run_failure_rate").firingSince).toBe(new Date(NOW).toISOString());
      const entries = await openRows(tenantId, "run_failure_rate");
      expect(entries.filter((r) => r.resolved_at === null).map((r) => r.id)).not.toContain(resolved[0].id);
      expect(entries.map((r) => r.resolved_at === null).sort()).toEqual([false, true]);
    });

    it("applies a tenant's own threshold and window to that tenant only", async () => {
      await fixture();
      const adminId = await userIdOf(suite.database, ADMIN);
      const scope = { ...demo(), actorId: adminId };
      // At exactly its value the rule does not fire: it must be above.
      const value = expectedFailureRate(15);
      const equal = await setAlertSetting(
        scope,
        "run_failure_rate",
        { threshold: value, windowMinutes: 15, enabled: true },
        new Date(NOW),
      );
      expect(equal).toMatchObject({ state: "ok", customized: true, updatedBy: adminId, threshold: value });

      // A 60-minute window takes in the failure 40 minutes back.
      const wide = await setAlertSetting(
        scope,
        "run_failure_rate",
        { threshold: 0.5, windowMinutes: 60, enabled: true },
        new Date(NOW),
      );
      expect(wide.value).toBeCloseTo(expectedFailureRate(60), 10);
      expect(wide.state).toBe(expectedFailureRate(60) > 0.5 ? "firing" : "ok");

      const bytes = await traceBytes(suite.tenants.demo, 1440);
      const storage = await setAlertSetting(
        scope,
        "trace_storage_growth",
        { threshold: bytes - 1, windowMinutes: 1440, enabled: true },
        new Date(NOW),
      );
      expect(storage).toMatchObject({ state: "firing", value: bytes, severity: "info" });

      const off = await setAlertSetting(
        scope,
        "phi_access_spike",
        { threshold: 100, windowMinutes: 60, enabled: false },
        new Date(NOW),
      );
      expect(off).toMatchObject({ state: "disabled", value: null, firingSince: null });
      expect((await openRows(suite.tenants.demo, "phi_access_spike")).every((r) => r.resolved_at !== null)).toBe(true);

      const ofAcme = (await evaluateAlerts(acme(), new Date(NOW))).alerts;
      for (const rule of ["run_failure_rate", "trace_storage_growth", "phi_access_spike"] as const) {
        expect(ruleOf(ofAcme, rule)).toMatchObject({
          customized: false,
          enabled: true,
          threshold: ALERT_RULE_DEFAULTS[rule].threshold,
          windowMinutes: ALERT_RULE_DEFAULTS[rule].windowMinutes,
        });
      }
      expect(ruleOf(ofAcme, "run_failure_rate").state).toBe("firing");
      expect(await openRows(suite.tenants.acme, "trace_storage_growth")).toEqual([]);
    });

    it("answers admins only, checks every edit and writes nothing on a bad one, and keeps tenants apart", async () => {
      await fixture();
      for (const email of [MEMBER, REVIEWER]) {
        expect((await client.get(email, alertsRoute.GET, "/api/audit/alerts")).status).toBe(403);
        const put = await client.put(
          email,
          alertRoute.PUT,
          "/api/audit/alerts/run_failure_rate",
          { threshold: 0.2, window_minutes: 15, enabled: true },
          { rule: "run_failure_rate" },
        );
        expect(put.status).toBe(403);
        expect(put.body.status).toBe("error");
      }
      const settings = async () =>
        rowsOf<{ rule: string; threshold: string; window_minutes: number; enabled: boolean; tenant_id: string }>(
          await suite.database.db.execute(
            sql`select tenant_id, rule, threshold::text, window_minutes, enabled from alert_settings order by tenant_id, rule`,
          ),
        );
      const before = await settings();
      const bad: [string, unknown][] = [
        ["run_failure_rate", { threshold: -1, window_minutes: 15, enabled: true }],
        ["run_failure_rate", { threshold: 2, window_minutes: 15, enabled: true }],
        ["run_failure_rate", { threshold: 0.1, window_minutes: 0, enabled: true }],
        ["run_failure_rate", { threshold: 0.1, window_minutes: 10_081, enabled: true }],
        ["run_failure_rate", { threshold: 0.1, window_minutes: 1.5, enabled: true }],
        ["run_failure_rate", { threshold: 0.1, window_minutes: 15 }],
        ["run_failure_rate", { threshold: "0.1", window_minutes: 15, enabled: true }],
        ["run_failure_rate", { threshold: 0.1, window_minutes: 15, enabled: true, tenant_id: suite.tenants.acme }],
        ["phi_access_spike", { threshold: 10.5, window_minutes: 60, enabled: true }],
        ["trace_storage_growth", { threshold: 1e13, window_minutes: 60, enabled: true }],
      ];
      for (const [rule, body] of bad) {
        const res = await client.put(ADMIN, alertRoute.PUT, `/api/audit/alerts/${rule}`, body, { rule });
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body).toMatchObject({ status: "error", code: "VALIDATION_FAILED" });
        expect(JSON.stringify(res.body)).not.toMatch(/alert_settings|select |at .*\.ts/);
      }
      const unknown = await client.put(
        ADMIN,
        alertRoute.PUT,
        "/api/audit/alerts/disk_full",
        { threshold: 1, window_minutes: 5, enabled: true },
        { rule: "disk_full" },
      );
      expect(unknown.status).toBe(404);
      expect(unknown.body.status).toBe("not_found");
      expect(await settings()).toEqual(before);

      const ok = await client.put(
        ACME_ADMIN,
        alertRoute.PUT,
        "/api/audit/alerts/checkpoint_timeout_rate",
        { threshold: 0.25, window_minutes: 30, enabled: true },
        { rule: "checkpoint_timeout_rate" },
      );
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
      expect(ok.body.alert).toMatchObject({ rule: "checkpoint_timeout_rate", threshold: 0.25, windowMinutes: 30 });

      const ofAcme = await client.get(ACME_ADMIN, alertsRoute.GET, "/api/audit/alerts");
      expect(ofAcme.status).toBe(200);
      const acmeAlerts = ofAcme.body.alerts as AuditAlert[];
      expect(ruleOf(acmeAlerts, "checkpoint_timeout_rate")).toMatchObject({ threshold: 0.25, customized: true });
      // Demo's history (its failure and storage alerts) is nowhere in acme's answer.
      const demoHistory = rowsOf<{ id: string }>(
        await suite.database.db.execute(sql`select id from alert_history where tenant_id = ${suite.tenants.demo}`),
      ).map((r) => r.id);
      expect(demoHistory.length).toBeGreaterThan(0);
      const acmeIds = acmeAlerts.flatMap((a) => a.history.map((h) => h.id));
      expect(acmeIds.filter((id) => demoHistory.includes(id))).toEqual([]);

      const ofDemo = await client.get(ADMIN, alertsRoute.GET, "/api/audit/alerts");
      expect(ofDemo.status).toBe(200);
      expect(ruleOf(ofDemo.body.alerts as AuditAlert[], "checkpoint_timeout_rate")).toMatchObject({
        threshold: 0.1,
        customized: false,
      });
    });
  });
}
