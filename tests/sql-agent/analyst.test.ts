import type { UIMessageChunk } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as sessionRoute from "@/app/api/chat/sessions/[id]/route";
import * as runRoute from "@/app/api/runs/[id]/route";
import type { ChatMessageView } from "@/lib/chat/contract";
import { type openWarehouse, setWarehouse } from "@/lib/datasources";
import { seedDemoDataSources } from "@/lib/demo";
import type { SqlResultPart } from "@/lib/runs/contract";
import { postChat, principal, textOf } from "../chat/support";
import { appTargets } from "../support/databases";
import { call } from "../support/http";
import { seededDatabase } from "../support/seeded";
import { openTestWarehouse } from "../support/sql-datasets";

// The Data Analyst through the chat API on the demo warehouse: the offline engine's SQL, checked
// by the guard and validation, run read-only, answers with the same rows as hand-written SQL.

const sqlPart = (chunks: UIMessageChunk[]): SqlResultPart | undefined =>
  (chunks.find((c) => c.type === "data-sql") as { data: SqlResultPart } | undefined)?.data;

for (const target of appTargets()) {
  describe(`the Data Analyst on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });
    let warehouse: Awaited<ReturnType<typeof openWarehouse>>;
    beforeAll(async () => {
      warehouse = await openTestWarehouse("analyst-test-key");
      setWarehouse(warehouse);
      await seedDemoDataSources(suite.database);
    }, 120_000);
    afterAll(async () => {
      setWarehouse(undefined);
      await warehouse?.close();
    });
    const direct = async (sql: string) => (await warehouse.client.query<unknown[]>(sql, [], { rowMode: "array" })).rows;

    it("answers orders per shipper in 1997 with a table, a chart and the SQL, as hand-written SQL does", async () => {
      const member = await principal(suite.tenants.demo);
      const turn = await postChat(member.auth, {
        agentId: "data-analyst",
        message: "How many orders did each shipper deliver in 1997?",
      });
      expect(turn.status).toBe(200);
      expect(turn.chunks.find((c) => c.type === "data-route")).toMatchObject({ data: { route: "sql" } });
      const agentTool = turn.chunks.filter((c) => c.type === "data-tool" && c.id === "sql_agent");
      expect(agentTool.map((c) => (c as { data: { status: string } }).data.status)).toContain("start");
      const part = sqlPart(turn.chunks);
      expect(part, JSON.stringify(turn.chunks.slice(-5))).toBeDefined();
      const expected = await direct(`select s.company_name, count(*) from northwind.orders o
        join northwind.shippers s on s.shipper_id = o.ship_via
        where o.order_date >= '1997-01-01' and o.order_date < '1998-01-01'
        group by s.company_name order by 2 desc, 1`);
      expect(part?.rows.map((r) => [r[0], Number(r[1])])).toEqual(expected.map((r) => [r[0], Number(r[1])]));
      expect(part?.sql).toMatch(/"northwind"\."orders"/);
      expect(part?.chart).toEqual({ x: "company_name", y: "order_count" });
      expect(part?.followups).toContain("And in 1998?");
      expect(textOf(turn.chunks)).toContain(String(expected[0][0]));

      // The saved answer keeps the result; "and in 1998?" asks the same question of 1998.
      const sessionId = turn.headers.get("x-vigil-session-id") as string;
      const next = await postChat(member.auth, { agentId: "data-analyst", sessionId, message: "and in 1998?" });
      const again = sqlPart(next.chunks);
      const expected1998 = await direct(`select s.company_name, count(*) from northwind.orders o
        join northwind.shippers s on s.shipper_id = o.ship_via
        where o.order_date >= '1998-01-01' and o.order_date < '1999-01-01'
        group by s.company_name order by 2 desc, 1`);
      expect(again?.rows.map((r) => [r[0], Number(r[1])])).toEqual(expected1998.map((r) => [r[0], Number(r[1])]));
      const detail = await call(sessionRoute.GET, {
        path: `/api/chat/sessions/${sessionId}`,
        headers: member.auth,
        params: { id: sessionId },
      });
      const messages = (detail.body as { messages: ChatMessageView[] }).messages;
      expect(messages.filter((m) => m.role === "assistant").map((m) => m.metadata.sql?.rows.length)).toEqual([
        expected.length,
        expected1998.length,
      ]);
    }, 120_000);

    it("answers top-N, lists with a filter, measures per a dimension and counts on every schema", async () => {
      const member = await principal(suite.tenants.demo);
      const ask = async (message: string) => {
        const turn = await postChat(member.auth, { agentId: "data-analyst", message });
        const part = sqlPart(turn.chunks);
        expect(part, `${message}: ${textOf(turn.chunks)}`).toBeDefined();
        return part as SqlResultPart;
      };
      const top = await ask("Top 5 customers by total invoice amount");
      const topExpected = await direct(`select c.first_name, c.last_name, sum(i.total) from chinook.customer c
        join chinook.invoice i on i.customer_id = c.customer_id group by c.customer_id, c.first_name, c.last_name
        order by 3 desc, 1, 2 limit 5`);
      expect(top.rows.map((r) => [r[0], r[1], Number(r[2])])).toEqual(
        topExpected.map((r) => [r[0], r[1], Number(r[2])]),
      );

      const germans = await ask("List customers whose country is Germany");
      const germansExpected = await direct(
        `select company_name from northwind.customers where country = 'Germany' order by company_name`,
      );
      expect(germans.rows.map((r) => r[0])).toEqual(germansExpected.map((r) => r[0]));

      const lengths = await ask("Average film length by rating");
      const lengthsExpected = await direct(
        `select f.rating::text, avg(f.length) from pagila.film f group by f.rating order by f.rating`,
      );
      expect(lengths.rows.map((r) => [r[0], Number(Number(r[1]).toFixed(4))])).toEqual(
        lengthsExpected.map((r) => [r[0], Number(Number(r[1]).toFixed(4))]),
      );

      // A business term of the registry on a protected table: planned by its name, read through its secure view.
      const reps = await ask("How many sales representatives are there?");
      expect(reps.sql).toContain('"secure_employees"');
      expect(Number(reps.rows[0][0])).toBe(
        Number((await direct("select count(*) from northwind.employees where title = 'Sales Representative'"))[0][0]),
      );

      const tracks = await ask("How many tracks are there?");
      expect(Number(tracks.rows[0][0])).toBe(Number((await direct("select count(*) from chinook.track"))[0][0]));
    }, 120_000);

    it("corrects a statement the database refuses after a column was renamed, and validates the correction", async () => {
      const member = await principal(suite.tenants.demo);
      const question = "How many orders did each shipper deliver in 1997?";
      // The source's schema is read now and kept; then the column is renamed under it.
      expect(
        sqlPart((await postChat(member.auth, { agentId: "data-analyst", message: question })).chunks),
      ).toBeDefined();
      await warehouse.client.exec("alter table northwind.shippers rename column company_name to company_nm");
      try {
        const turn = await postChat(member.auth, { agentId: "data-analyst", message: question });
        const part = sqlPart(turn.chunks);
        expect(part, textOf(turn.chunks)).toBeDefined();
        expect(part?.sql).toContain('"company_nm"');
        expect(part?.rows).toHaveLength(3);
        const runId = turn.headers.get("x-vigil-run-id") as string;
        const run = await call(runRoute.GET, {
          path: `/api/runs/${runId}`,
          headers: member.auth,
          params: { id: runId },
        });
        const state = (run.body as { run: { state: Record<string, unknown> } }).run.state;
        expect(state.sql_correction_attempts).toBe(1);
        // Corrected before it ran: no regeneration, and no error left standing.
        expect(state.retries).toBe(0);
        expect(state.last_sql_error).toBeNull();
        expect(state.question).toBe(question);
        expect(state.column_names).toEqual(part?.columns);
        expect(JSON.stringify(state.correction_history)).toMatch(
          /column \\"company_name\\" not found in shippers.*did you mean \\"company_nm\\"/,
        );
      } finally {
        await warehouse.client.exec("alter table northwind.shippers rename column company_nm to company_name");
      }
    }, 120_000);

    it("says so when a question is beyond the offline engine, and answers nothing but a data question with SQL", async () => {
      const member = await principal(suite.tenants.demo);
      const beyond = await postChat(member.auth, { agentId: "data-analyst", message: "Why did revenue dip?" });
      expect(sqlPart(beyond.chunks)).toBeUndefined();
      expect(textOf(beyond.chunks)).toMatch(/beyond what the offline engine/);
      const general = await postChat(member.auth, { agentId: "data-analyst", message: "Hello there" });
      expect(general.chunks.find((c) => c.type === "data-route")).toMatchObject({ data: { route: "general" } });
      expect(sqlPart(general.chunks)).toBeUndefined();
    }, 60_000);

    it("is not there for another tenant's member", async () => {
      const outsider = await principal(suite.tenants.acme);
      const turn = await postChat(outsider.auth, { agentId: "data-analyst", message: "How many orders are there?" });
      expect(turn.status).toBe(404);
    });
  });
}
