import net from "node:net";
import type { UIMessageChunk } from "ai";
import { count } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as sessionRoute from "@/app/api/chat/sessions/[id]/route";
import * as sourceRoute from "@/app/api/datasources/[id]/route";
import * as choicesRoute from "@/app/api/datasources/choices/route";
import * as sourcesRoute from "@/app/api/datasources/route";
import { acceptSourceRisk, createDataSource, type openWarehouse, setWarehouse } from "@/lib/datasources";
import type { DataSourceChoice, DataSourceSummary } from "@/lib/datasources/contract";
import { schema } from "@/lib/db";
import { seedDemoDataSources } from "@/lib/demo";
import type { SqlResultPart } from "@/lib/runs/contract";
import { postChat, principal, textOf } from "../chat/support";
import { appTargets } from "../support/databases";
import { call } from "../support/http";
import { seededDatabase } from "../support/seeded";
import { openTestWarehouse } from "../support/sql-datasets";

// Which source the Data Analyst asks: the request's dataSourceId → the consultation's remembered
// source → the tenant's default (set by an admin) → the only source → a question back listing
// them. A source added later moves no one; a source that does not answer ends the turn quickly.

const sqlPart = (chunks: UIMessageChunk[]): SqlResultPart | undefined =>
  (chunks.find((c) => c.type === "data-sql") as { data: SqlResultPart } | undefined)?.data;

const QUESTION = "How many orders did each shipper deliver in 1997?";

/** A loopback port that accepts connections and never says a word. */
async function silentPort(): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => {});
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A loopback port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

for (const target of appTargets()) {
  describe(`the Data Analyst's source on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });
    let warehouse: Awaited<ReturnType<typeof openWarehouse>>;
    let demoSourceId: string;
    let admin: Awaited<ReturnType<typeof principal>>;
    let member: Awaited<ReturnType<typeof principal>>;
    const allowance = process.env.VIGIL_DATASOURCE_ALLOW_HOSTS;

    beforeAll(async () => {
      // The unreachable sources below listen on loopback: the operator allows it here.
      process.env.VIGIL_DATASOURCE_ALLOW_HOSTS = "127.0.0.1";
      warehouse = await openTestWarehouse("picker-test-key");
      setWarehouse(warehouse);
      await seedDemoDataSources(suite.database);
      admin = await principal(suite.tenants.demo, "admin");
      member = await principal(suite.tenants.demo);
      const list = await call(sourcesRoute.GET, { path: "/api/datasources", headers: admin.auth });
      demoSourceId = (list.body.items as DataSourceSummary[])[0].id;
    }, 120_000);
    afterAll(async () => {
      process.env.VIGIL_DATASOURCE_ALLOW_HOSTS = allowance;
      setWarehouse(undefined);
      await warehouse?.close();
    });

    const rowCounts = async () => {
      const { db } = suite.database;
      const [[sessions], [messages], [runs]] = await Promise.all([
        db.select({ n: count() }).from(schema.chatSessions),
        db.select({ n: count() }).from(schema.chatMessages),
        db.select({ n: count() }).from(schema.runs),
      ]);
      return [Number(sessions.n), Number(messages.n), Number(runs.n)];
    };
    const sessionSource = async (sessionId: string) => {
      const detail = await call(sessionRoute.GET, {
        path: `/api/chat/sessions/${sessionId}`,
        headers: member.auth,
        params: { id: sessionId },
      });
      return (detail.body.session as { dataSourceId: string | null }).dataSourceId;
    };
    const ask = (body: Record<string, unknown>) => postChat(member.auth, { agentId: "data-analyst", ...body });

    it("walks the resolution order: only source, remembered, asked which, picked, default — and refuses bad picks", async () => {
      // 1. The only source: answered from it, and the consultation keeps it.
      const first = await ask({ message: QUESTION });
      expect(first.status).toBe(200);
      expect(sqlPart(first.chunks)?.source).toEqual({ id: demoSourceId, name: "Demo warehouse" });
      const kept = first.headers.get("x-vigil-session-id") as string;
      expect(await sessionSource(kept)).toBe(demoSourceId);

      // A second source, holding only Chinook, added later (created second, so newer).
      const second = await createDataSource(
        { tenantId: suite.tenants.demo },
        {
          name: "Music store",
          kind: "warehouse",
          allowedSchemas: ["chinook"],
          rowLimit: 1000,
          statementTimeoutMs: 5000,
        },
        "test",
      );

      // 2. Adding a source moves no one: the kept consultation still asks the demo warehouse.
      const again = await ask({ sessionId: kept, message: QUESTION });
      expect(sqlPart(again.chunks)?.source.id).toBe(demoSourceId);

      // 3. A new consultation, two sources, no default: the analyst asks which, naming both.
      const unsure = await ask({ message: QUESTION });
      expect(unsure.status).toBe(200);
      expect(sqlPart(unsure.chunks)).toBeUndefined();
      const question = textOf(unsure.chunks);
      expect(question).toContain("“Demo warehouse”");
      expect(question).toContain("“Music store”");
      expect(question).toMatch(/Which one should I ask\?/);
      const unsureId = unsure.headers.get("x-vigil-session-id") as string;
      expect(await sessionSource(unsureId)).toBeNull();

      // 4. The request's dataSourceId: the same consultation now asks the Music store, and keeps it.
      const picked = await ask({
        sessionId: unsureId,
        dataSourceId: second.id,
        message: "How many tracks are there in each genre?",
      });
      expect(sqlPart(picked.chunks)?.source).toEqual({ id: second.id, name: "Music store" });
      expect(sqlPart(picked.chunks)?.sql).toMatch(/"chinook"\./);
      expect(await sessionSource(unsureId)).toBe(second.id);
      const followUp = await ask({ sessionId: unsureId, message: "How many tracks are there in each genre?" });
      expect(sqlPart(followUp.chunks)?.source.id).toBe(second.id);
      // The Music store has no Northwind: the orders question is not answered from the other source.
      const elsewhere = await ask({ sessionId: unsureId, message: QUESTION });
      expect(sqlPart(elsewhere.chunks)?.source.id ?? second.id).toBe(second.id);

      // 5. The tenant's default, set by an admin: new consultations ask it; only one default at a time.
      const forbidden = await call(sourceRoute.PUT, {
        method: "PUT",
        path: `/api/datasources/${second.id}`,
        headers: member.auth,
        params: { id: second.id },
        body: { isDefault: true },
      });
      expect(forbidden.status).toBe(403);
      const setDefault = async (id: string, isDefault: boolean) =>
        call(sourceRoute.PUT, {
          method: "PUT",
          path: `/api/datasources/${id}`,
          headers: admin.auth,
          params: { id },
          body: { isDefault },
        });
      expect((await setDefault(second.id, true)).body.source).toMatchObject({ id: second.id, isDefault: true });
      const byDefault = await ask({ message: "How many tracks are there in each genre?" });
      expect(sqlPart(byDefault.chunks)?.source.id).toBe(second.id);
      // The kept consultation is not moved by the default either.
      const stillKept = await ask({ sessionId: kept, message: QUESTION });
      expect(sqlPart(stillKept.chunks)?.source.id).toBe(demoSourceId);
      await setDefault(demoSourceId, true);
      const list = await call(sourcesRoute.GET, { path: "/api/datasources", headers: admin.auth });
      const defaults = (list.body.items as DataSourceSummary[]).filter((s) => s.isDefault).map((s) => s.id);
      expect(defaults).toEqual([demoSourceId]);
      const afterSwitch = await ask({ message: QUESTION });
      expect(sqlPart(afterSwitch.chunks)?.source.id).toBe(demoSourceId);
      expect((await setDefault(demoSourceId, false)).body.source).toMatchObject({ isDefault: false });
      expect((await setDefault(demoSourceId, "yes" as never)).status).toBe(400);

      // The picker's list, for any member: enabled sources, oldest first, without targets.
      const choices = await call(choicesRoute.GET, { path: "/api/datasources/choices", headers: member.auth });
      expect(choices.status).toBe(200);
      const items = choices.body.items as DataSourceChoice[];
      expect(items.map((c) => c.name)).toEqual(["Demo warehouse", "Music store"]);
      expect(Object.keys(items[0]).sort()).toEqual(["id", "isDefault", "kind", "name"]);

      // Refusals: nothing is written for any of them.
      const before = await rowCounts();
      const notUuid = await ask({ message: QUESTION, dataSourceId: "warehouse" });
      expect(notUuid.status).toBe(400);
      expect(notUuid.body).toMatchObject({ status: "error", code: "VALIDATION_FAILED" });
      const unknown = await ask({ message: QUESTION, dataSourceId: "00000000-0000-4000-8000-000000000000" });
      expect(unknown.status).toBe(404);
      const acmeSource = await createDataSource(
        { tenantId: suite.tenants.acme },
        {
          name: "Acme warehouse",
          kind: "warehouse",
          allowedSchemas: ["pagila"],
          rowLimit: 1000,
          statementTimeoutMs: 5000,
        },
        "test",
      );
      const otherTenant = await ask({ message: QUESTION, dataSourceId: acmeSource.id });
      expect(otherTenant.status).toBe(404);
      const port = await closedPort();
      const disabled = await createDataSource(
        { tenantId: suite.tenants.demo },
        {
          name: "Unverified",
          kind: "postgres",
          connectionString: `postgres://vigil:secret@127.0.0.1:${port}/app`,
          allowedSchemas: ["public"],
          rowLimit: 1000,
          statementTimeoutMs: 5000,
        },
        "test",
      );
      const refusedDisabled = await ask({ message: QUESTION, dataSourceId: disabled.id });
      expect(refusedDisabled.status).toBe(400);
      expect(refusedDisabled.body).toMatchObject({
        status: "error",
        code: "VALIDATION_FAILED",
        details: [{ path: "dataSourceId" }],
      });
      expect(JSON.stringify(refusedDisabled.body)).toContain("is disabled");
      const onKept = await ask({ sessionId: kept, message: QUESTION, dataSourceId: acmeSource.id });
      expect(onKept.status).toBe(404);
      expect(await rowCounts()).toEqual(before);
      expect(await sessionSource(kept)).toBe(demoSourceId);
      // The disabled source is not offered in the picker either.
      const offered = await call(choicesRoute.GET, { path: "/api/datasources/choices", headers: member.auth });
      expect((offered.body.items as DataSourceChoice[]).map((c) => c.id)).not.toContain(disabled.id);
    }, 300_000);

    it.each(["closed", "silent"] as const)(
      "a source on a %s port answers within seconds that it is unreachable",
      async (behaviour) => {
        const silent = behaviour === "silent" ? await silentPort() : null;
        const port = silent?.port ?? (await closedPort());
        const scope = { tenantId: suite.tenants.demo, userId: "test" };
        const source = await createDataSource(
          scope,
          {
            name: `Unreachable ${behaviour}`,
            kind: "postgres",
            connectionString: `postgres://vigil:secret@127.0.0.1:${port}/app`,
            allowedSchemas: ["public"],
            rowLimit: 1000,
            statementTimeoutMs: 5000,
          },
          "test",
        );
        await acceptSourceRisk(scope, source.id, { accept: true, reason: "a test of an unreachable source" });
        try {
          const started = Date.now();
          const turn = await ask({ message: QUESTION, dataSourceId: source.id });
          const seconds = (Date.now() - started) / 1000;
          expect(turn.status).toBe(200);
          expect(sqlPart(turn.chunks)).toBeUndefined();
          const text = textOf(turn.chunks);
          expect(text).toContain(`“Unreachable ${behaviour}” is unreachable`);
          expect(text).toContain("Nothing was queried");
          expect(seconds).toBeLessThan(10);
        } finally {
          await silent?.close();
        }
      },
      60_000,
    );
  });
}
