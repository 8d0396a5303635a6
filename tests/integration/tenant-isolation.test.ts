import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, rowsOf, schema, setActiveDatabase, tenantStatement, withTenant } from "@/lib/db";
import { testTargets } from "../support/databases";
import { dbErrorOf } from "../support/errors";
import { type SeededTenants, seedTenants } from "../support/seeded";

// Tables this test fills for both tenants; the others are checked for leaks all the same.
const POPULATED = [
  "agents",
  "api_keys",
  "chat_messages",
  "chat_sessions",
  "memberships",
  "runs",
  "run_events",
  "execution_trace",
  "execution_trace_outbox",
];
// Tables the app role may only append to: UPDATE and DELETE are refused outright.
const APPEND_ONLY = ["run_events", "execution_trace", "hitl_events", "hitl_cases", "hitl_case_refs"];
// Rows nobody edits, but a process takes away once it has handled them (the trace outbox).
const NO_UPDATE = ["execution_trace_outbox"];

for (const target of testTargets()) {
  describe(`tenant isolation on ${target.name}`, () => {
    let database: Database;
    let tenants: SeededTenants;
    let scoped: string[];

    beforeAll(async () => {
      // A copy of the run's seeded template: the seeding below finds everything there.
      database = target.openFrom ? await target.openFrom("seeded-knowledge") : await target.open();
      setActiveDatabase(database);
      tenants = await seedTenants(database);
      // Give every tenant-scoped table at least one row per tenant, written as the owner.
      for (const tenantId of [tenants.demo, tenants.acme]) {
        const [agent] = await database.db
          .select()
          .from(schema.agents)
          .where(sql`${schema.agents.tenantId} = ${tenantId}`)
          .limit(1);
        const [session] = await database.db
          .insert(schema.chatSessions)
          .values({ tenantId, userId: "someone", agentId: agent.id, title: "hello" })
          .returning();
        await database.db
          .insert(schema.chatMessages)
          .values({ tenantId, sessionId: session.id, role: "user", content: "hi" });
        await database.db
          .insert(schema.apiKeys)
          .values({ tenantId, name: "k", prefix: "vk_x", keyHash: `hash-${tenantId}`, role: "member", createdBy: "t" });
        const [run] = await database.db
          .insert(schema.runs)
          .values({
            tenantId,
            workflow: "demo-echo",
            threadId: `t-${tenantId}`,
            createdBy: "someone",
            status: "completed",
          })
          .returning();
        await database.db
          .insert(schema.runEvents)
          .values({ tenantId, runId: run.id, seq: 1, type: "run-start", payload: {} });
        await database.db.insert(schema.executionTrace).values({
          tenantId,
          seq: 1,
          eventType: "run_start",
          eventData: {},
          eventTimestamp: new Date(),
          prevHash: "0",
          hash: "1",
        });
        await database.db
          .insert(schema.executionTraceOutbox)
          .values({ tenantId, eventType: "run_start", eventTimestamp: new Date() });
      }
      // The tables come from the catalog, so a table added later cannot escape this test.
      const result = await database.db.execute(
        sql`select c.table_name as name from information_schema.columns c
            join information_schema.tables t on t.table_name = c.table_name and t.table_schema = c.table_schema
            where c.table_schema = 'public' and c.column_name = 'tenant_id' and t.table_type = 'BASE TABLE'
            order by 1`,
      );
      scoped = rowsOf<{ name: string }>(result).map((r) => r.name);
    });

    afterAll(async () => {
      setActiveDatabase(undefined);
      await database.close();
    });

    it("finds the tenant-scoped tables", () => {
      expect(scoped).toEqual(
        expect.arrayContaining(["agents", "api_keys", "chat_messages", "chat_sessions", "memberships"]),
      );
    });

    it("enables and forces row-level security on every tenant-scoped table", async () => {
      const result = await database.db.execute(
        sql`select relname, relrowsecurity, relforcerowsecurity from pg_class
            where relnamespace = 'public'::regnamespace and relkind = 'r'`,
      );
      const flags = new Map(
        rowsOf<{ relname: string; relrowsecurity: boolean; relforcerowsecurity: boolean }>(result).map((r) => [
          r.relname,
          r,
        ]),
      );
      for (const table of [...scoped, "tenants"]) {
        expect(flags.get(table), table).toMatchObject({ relrowsecurity: true, relforcerowsecurity: true });
      }
    });

    it("shows demo no row of acme in any tenant-scoped table", async () => {
      for (const table of scoped) {
        const counts = await withTenant({ tenantId: tenants.demo }, async (tx) => {
          const r = await tx.execute(
            sql`select count(*)::int as total, count(*) filter (where tenant_id = ${tenants.acme})::int as foreign
                from ${sql.identifier(table)}`,
          );
          return rowsOf<{ total: number; foreign: number }>(r)[0];
        });
        const owner = rowsOf<{ n: number }>(
          await database.db.execute(
            sql`select count(*)::int as n from ${sql.identifier(table)} where tenant_id = ${tenants.demo}`,
          ),
        )[0];
        expect(counts.foreign, table).toBe(0);
        expect(counts.total, table).toBe(owner.n);
        if (POPULATED.includes(table)) expect(owner.n, `${table} has demo rows to see`).toBeGreaterThan(0);
      }
    });

    it("sees only its own tenant row", async () => {
      const rows = await withTenant({ tenantId: tenants.demo }, (tx) => tx.select().from(schema.tenants));
      expect(rows.map((r) => r.slug)).toEqual(["demo"]);
    });

    it("cannot insert a row for acme while acting for demo", async () => {
      const [acmeAgent] = await database.db.select().from(schema.agents).where(sql`tenant_id = ${tenants.acme}`);
      const message = await dbErrorOf(
        withTenant({ tenantId: tenants.demo }, (tx) =>
          tx
            .insert(schema.chatSessions)
            .values({ tenantId: tenants.acme, userId: "intruder", agentId: acmeAgent.id, title: "x" }),
        ),
      );
      expect(message).toMatch(/row-level security/i);
      const after = rowsOf<{ n: number }>(
        await database.db.execute(sql`select count(*)::int as n from chat_sessions where user_id = 'intruder'`),
      )[0];
      expect(after.n).toBe(0);
    });

    it("runs a single tenant statement as the app role, bound to its tenant", async () => {
      const rows = await tenantStatement<{ role: string; tenant: string; agents: number; foreign: number }>(
        { tenantId: tenants.demo },
        sql`select current_user as role, current_setting('app.tenant_id') as tenant,
              count(*)::int as agents, count(*) filter (where tenant_id = ${tenants.acme})::int as foreign
            from agents`,
      );
      expect(rows).toEqual([{ role: "vigil_app", tenant: tenants.demo, agents: expect.any(Number), foreign: 0 }]);
      expect(rows[0].agents).toBeGreaterThan(0);
    });

    it("keeps nothing of a single tenant statement that fails, and leaves its connection clean", async () => {
      const [acmeAgent] = await database.db.select().from(schema.agents).where(sql`tenant_id = ${tenants.acme}`);
      const [demoAgent] = await database.db.select().from(schema.agents).where(sql`tenant_id = ${tenants.demo}`);
      // One statement that writes a demo row and then trips row-level security on an acme row.
      const message = await dbErrorOf(
        tenantStatement(
          { tenantId: tenants.demo },
          sql`insert into chat_sessions (tenant_id, user_id, agent_id, title)
              values (${tenants.demo}, 'single-statement', ${demoAgent.id}, 'ok'),
                     (${tenants.acme}, 'single-statement', ${acmeAgent.id}, 'intruder')`,
        ),
      );
      expect(message).toMatch(/row-level security/i);
      const written = rowsOf<{ n: number }>(
        await database.db.execute(sql`select count(*)::int as n from chat_sessions where user_id = 'single-statement'`),
      )[0];
      expect(written.n).toBe(0);
      // A bad tenant id fails in the setup, before the statement: nothing runs without a tenant.
      expect(await dbErrorOf(tenantStatement({ tenantId: "not-a-uuid" }, sql`select count(*) from agents`))).toMatch(
        /uuid/i,
      );
      // Every pooled connection is back outside any transaction, with no role or tenant left set.
      for (let i = 0; i < 12; i++) {
        const [state] = await tenantStatement<{ role: string; tenant: string }>(
          { tenantId: tenants.acme },
          sql`select current_user as role, current_setting('app.tenant_id') as tenant`,
        );
        expect(state).toEqual({ role: "vigil_app", tenant: tenants.acme });
      }
      const after = rowsOf<{ role: string; tenant: string | null }>(
        await database.db.execute(sql`select current_user as role, current_setting('app.tenant_id', true) as tenant`),
      )[0];
      expect(after.role).not.toBe("vigil_app");
      expect(after.tenant ?? "").toBe("");
    });

    it("touches 0 acme rows with UPDATE and DELETE across tenants", async () => {
      const asDemo = (statement: ReturnType<typeof sql>) =>
        withTenant({ tenantId: tenants.demo }, async (tx) => rowsOf(await tx.execute(statement)).length);
      for (const table of scoped) {
        const update = sql`update ${sql.identifier(table)} set tenant_id = tenant_id where tenant_id = ${tenants.acme} returning 1`;
        const del = sql`delete from ${sql.identifier(table)} where tenant_id = ${tenants.acme} returning 1`;
        if (APPEND_ONLY.includes(table)) {
          expect(await dbErrorOf(asDemo(update)), table).toMatch(/permission denied/i);
          expect(await dbErrorOf(asDemo(del)), table).toMatch(/permission denied/i);
        } else if (NO_UPDATE.includes(table)) {
          expect(await dbErrorOf(asDemo(update)), table).toMatch(/permission denied/i);
          expect({ table, deleted: await asDemo(del) }).toEqual({ table, deleted: 0 });
        } else {
          expect({ table, updated: await asDemo(update), deleted: await asDemo(del) }).toEqual({
            table,
            updated: 0,
            deleted: 0,
          });
        }
      }
      for (const table of POPULATED) {
        const left = rowsOf<{ n: number }>(
          await database.db.execute(
            sql`select count(*)::int as n from ${sql.identifier(table)} where tenant_id = ${tenants.acme}`,
          ),
        )[0];
        expect(left.n, `${table} keeps its acme rows`).toBeGreaterThan(0);
      }
    });

    it("does not let the app role create tenants or read password hashes", async () => {
      const insertTenant = await dbErrorOf(
        withTenant({ tenantId: tenants.demo }, (tx) =>
          tx.insert(schema.tenants).values({ slug: "evil", name: "Evil" }),
        ),
      );
      expect(insertTenant).toMatch(/permission denied/i);
      const readAccounts = await dbErrorOf(
        withTenant({ tenantId: tenants.demo }, (tx) => tx.select().from(schema.account)),
      );
      expect(readAccounts).toMatch(/permission denied/i);
    });

    it("sees nothing at all when no tenant is set", async () => {
      const { db } = database;
      const n = await db.transaction(async (tx) => {
        await tx.execute(sql`set local role vigil_app`);
        return rowsOf<{ n: number }>(await tx.execute(sql`select count(*)::int as n from agents`))[0].n;
      });
      expect(n).toBe(0);
    });
  });
}
