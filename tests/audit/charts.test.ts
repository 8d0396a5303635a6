import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { lastDays, runsPerDay } from "@/lib/audit";
import { schema } from "@/lib/db";
import { testTargets } from "../support/databases";
import { seededDatabase } from "../support/seeded";

// Runs at known instants around UTC midnights in 2021, counted per day by the test itself.
const FIXTURE: { at: string; status: "completed" | "failed" | "cancelled" | "interrupted" }[] = [
  { at: "2021-06-01T00:00:00.000Z", status: "completed" },
  { at: "2021-06-01T23:59:59.999Z", status: "failed" },
  { at: "2021-06-02T00:00:00.000Z", status: "completed" },
  { at: "2021-06-02T12:00:00.000Z", status: "completed" },
  { at: "2021-06-02T13:00:00.000Z", status: "cancelled" },
  { at: "2021-06-04T08:00:00.000Z", status: "interrupted" },
  { at: "2021-06-05T08:00:00.000Z", status: "completed" },
];

for (const target of testTargets()) {
  describe(`audit charts on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });

    it("counts runs per UTC day by outcome, every day of the range present", async () => {
      const insert = (tenantId: string, at: string, status: string) =>
        suite.database.db.insert(schema.runs).values({
          id: randomUUID(),
          tenantId,
          workflow: "autonomous",
          threadId: `chart-${randomUUID()}`,
          status: status as "completed",
          createdBy: "chart-fixture",
          createdAt: new Date(at),
        });
      for (const run of FIXTURE) await insert(suite.tenants.demo, run.at, run.status);
      // Acme's run on the same day is not demo's.
      await insert(suite.tenants.acme, "2021-06-02T10:00:00Z", "failed");

      const from = Date.parse("2021-06-01T15:00:00Z");
      const to = Date.parse("2021-06-04T01:00:00Z");
      const days = await runsPerDay({ tenantId: suite.tenants.demo }, { from, to });

      const expected = ["2021-06-01", "2021-06-02", "2021-06-03", "2021-06-04"].map((day) => {
        const on = FIXTURE.filter((r) => r.at.startsWith(day));
        return {
          day,
          completed: on.filter((r) => r.status === "completed").length,
          failed: on.filter((r) => r.status === "failed").length,
          other: on.filter((r) => r.status !== "completed" && r.status !== "failed").length,
        };
      });
      expect(days).toEqual(expected);
      expect(days[2]).toEqual({ day: "2021-06-03", completed: 0, failed: 0, other: 0 });

      const acme = await runsPerDay({ tenantId: suite.tenants.acme }, { from, to });
      expect(acme.map((d) => d.failed)).toEqual([0, 1, 0, 0]);
    });

    it("spans the last n days up to today", () => {
      const now = Date.parse("2021-06-30T10:00:00Z");
      const range = lastDays(30, now);
      expect(new Date(range.from).toISOString().slice(0, 10)).toBe("2021-06-01");
      expect(range.to).toBe(now);
    });
  });
}
