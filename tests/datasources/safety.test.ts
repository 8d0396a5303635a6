import net from "node:net";
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import * as acceptRoute from "@/app/api/datasources/[id]/accept-risk/route";
import * as testRoute from "@/app/api/datasources/[id]/test/route";
import * as sourcesRoute from "@/app/api/datasources/route";
import { createDataSource, querySource, testDataSource } from "@/lib/datasources";
import { rowsOf } from "@/lib/db";
import { drainTrace } from "@/lib/trace";
import { ADMIN, type HitlClient, hitlClient, MEMBER } from "../api-hitl/support";
import { testTargets } from "../support/databases";
import { seededDatabase } from "../support/seeded";
import { MYSQL_URL } from "../support/sql-datasets";
import { unguardedSqlForTests } from "../support/unguarded-sql";

// Data sources that cannot be turned into weapons: the egress policy, the connection-string
// allow-list, one message for every way a connection fails, and no query before the role is
// verified read-only or an admin accepted the risk.

const PG_SERVER = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const LOCAL = "127.0.0.1,localhost,::1";

describe("data-source safety", () => {
  const suite = seededDatabase(testTargets()[0], { knowledge: false });
  const api: HitlClient = hitlClient();
  const scope = () => ({ tenantId: suite.tenants.demo });
  const saved = { hosts: process.env.VIGIL_DATASOURCE_ALLOW_HOSTS, db: process.env.DATABASE_URL };
  afterEach(() => {
    process.env.VIGIL_DATASOURCE_ALLOW_HOSTS = saved.hosts;
    if (saved.db === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = saved.db;
  });
  let n = 0;
  const body = (connectionString: string, kind = "postgres") => ({
    name: `source ${++n}`,
    kind,
    connectionString,
    allowedSchemas: ["public"],
  });
  const count = async () =>
    rowsOf<{ n: number }>(await suite.database.db.execute(sql`select count(*)::int as n from data_sources`))[0].n;

  async function refused(connectionString: string, kind: string, message: RegExp) {
    const before = await count();
    const res = await api.post(ADMIN, sourcesRoute.POST, "/api/datasources", body(connectionString, kind));
    expect(res.status, `${connectionString}: ${JSON.stringify(res.body)}`).toBe(400);
    expect(res.body).toMatchObject({ status: "error", code: "VALIDATION_FAILED" });
    const details = res.body.details as { path: string; message: string }[];
    expect(details.map((d) => d.path)).toEqual(["connectionString"]);
    expect(details[0].message, connectionString).toMatch(message);
    expect(await count()).toBe(before);
  }

  it("refuses loopback, link-local and private targets unless the operator lists them", async () => {
    delete process.env.VIGIL_DATASOURCE_ALLOW_HOSTS;
    for (const host of [
      "127.0.0.1",
      "localhost",
      "[::1]",
      "10.0.0.5",
      "192.168.1.10",
      "172.16.0.1",
      "169.254.169.254",
      "0.0.0.0",
      "[::ffff:127.0.0.1]",
      "[fd00::1]",
    ]) {
      await refused(`postgres://u:p@${host}:5432/db`, "postgres", /not allow.*(Loopback|private)/i);
    }
    await refused("mysql://root@127.0.0.1:3306/db", "mysql", /not allow/);
    // Public addresses are allowed by default, on ports from 1024. Registration only resolves and
    // checks; nothing connects (and no test here sends anything to a public address).
    await refused("postgres://u:p@8.8.8.8:22/db", "postgres", /Port 22/);
    const publicSource = await api.post(
      ADMIN,
      sourcesRoute.POST,
      "/api/datasources",
      body("postgres://u:p@8.8.8.8:5432/db"),
    );
    expect(publicSource.status).toBe(201);
    expect(publicSource.body.source).toMatchObject({ enabled: false, readOnlyVerified: false });
  });

  it("with an allowance, allows only the listed targets, and checks again at connect time", async () => {
    process.env.VIGIL_DATASOURCE_ALLOW_HOSTS = "127.0.0.1:5432, *.db.internal";
    await refused("postgres://u:p@127.0.0.1:6543/db", "postgres", /VIGIL_DATASOURCE_ALLOW_HOSTS/);
    await refused("postgres://u:p@10.1.2.3:5432/db", "postgres", /VIGIL_DATASOURCE_ALLOW_HOSTS/);
    await refused("postgres://u:p@8.8.8.8:5432/db", "postgres", /VIGIL_DATASOURCE_ALLOW_HOSTS/);

    // Stored while allowed; the operator then withdraws the allowance: Test never connects.
    let connections = 0;
    const server = net.createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const port = (server.address() as net.AddressInfo).port;
      process.env.VIGIL_DATASOURCE_ALLOW_HOSTS = `127.0.0.1:${port}`;
      const source = await createDataSource(
        scope(),
        { ...body(`postgres://u:p@127.0.0.1:${port}/db`), kind: "postgres", rowLimit: 10, statementTimeoutMs: 1000 },
        "t",
      );
      process.env.VIGIL_DATASOURCE_ALLOW_HOSTS = "db.example.com";
      const result = await testDataSource(scope(), source.id);
      expect(result).toMatchObject({ reachable: false });
      expect(result.error).toMatch(/does not allow data sources at that address/);
      expect(connections).toBe(0);
    } finally {
      server.close();
    }
  });

  it("never lets the application's own database be a source", async () => {
    process.env.VIGIL_DATASOURCE_ALLOW_HOSTS = LOCAL;
    process.env.DATABASE_URL = "postgres://vigil@127.0.0.1:5432/vigil_app";
    await refused("postgres://anyone:x@localhost:5432/vigil_app", "postgres", /own database/);
    await refused("postgres://anyone:x@[::1]:5432/vigil_app", "postgres", /own database/);
    // Another database on the same server is a policy matter, not the app's own data.
    const other = await api.post(
      ADMIN,
      sourcesRoute.POST,
      "/api/datasources",
      body("postgres://anyone:x@127.0.0.1:5432/sales"),
    );
    expect(other.status).toBe(201);
  });

  it("allows only the TLS option in a connection string, and no socket", async () => {
    process.env.VIGIL_DATASOURCE_ALLOW_HOSTS = LOCAL;
    const pg = "postgres://u:p@127.0.0.1:5432/db";
    const my = "mysql://u:p@127.0.0.1:3306/db";
    await refused(`${pg}?host=/var/run/postgresql`, "postgres", /option “host” is not allowed/);
    await refused(`${pg}?sslmode=disable`, "postgres", /sslmode=disable would turn TLS/);
    await refused(`${pg}?sslmode=no-verify`, "postgres", /would turn TLS/);
    await refused(`${pg}?options=-c%20default_transaction_read_only%3Doff`, "postgres", /option “options”/);
    await refused(
      "postgres://u:p@127.0.0.1:5432,10.0.0.1:5432/db",
      "postgres",
      /one DNS name or IP address|Write it as a URL/,
    );
    await refused(`${my}?multipleStatements=true`, "mysql", /option “multipleStatements” is not allowed/);
    await refused(`${my}?socketPath=/run/mysqld/mysqld.sock`, "mysql", /option “socketPath”/);
    await refused(`${my}?ssl=${encodeURIComponent('{"rejectUnauthorized":false}')}`, "mysql", /option “ssl”/);
    await refused(`${my}?ssl-mode=DISABLED`, "mysql", /would turn TLS/);
    const verified = await api.post(ADMIN, sourcesRoute.POST, "/api/datasources", body(`${pg}?sslmode=verify-full`));
    expect(verified.status).toBe(201);
  });

  it("answers every failure to connect or sign in with the same words", async () => {
    process.env.VIGIL_DATASOURCE_ALLOW_HOSTS = `${LOCAL},nowhere.invalid`;
    const pgUnknownRole = new URL(PG_SERVER);
    pgUnknownRole.username = "vigil_no_such_role";
    pgUnknownRole.password = "x";
    const myDenied = new URL(MYSQL_URL);
    myDenied.password = "not-the-password";
    const silent = net.createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      const targets: [string, "postgres" | "mysql"][] = [
        ["postgres://u:p@127.0.0.1:1/db", "postgres"], // refused
        [`postgres://u:p@127.0.0.1:${(silent.address() as net.AddressInfo).port}/db`, "postgres"], // timed out
        ["postgres://u:p@nowhere.invalid:5432/db", "postgres"], // unknown host
        [pgUnknownRole.toString(), "postgres"], // unknown role
        [myDenied.toString(), "mysql"], // access denied
        ["mysql://u:p@127.0.0.1:1/db", "mysql"], // refused
      ];
      const messages = new Set<string>();
      for (const [connectionString, kind] of targets) {
        const source = await createDataSource(
          scope(),
          { ...body(connectionString, kind), kind, rowLimit: 10, statementTimeoutMs: 1000 },
          "t",
        );
        const result = await testDataSource(scope(), source.id);
        expect(result.reachable, connectionString).toBe(false);
        messages.add(String(result.error));
      }
      expect([...messages]).toEqual([expect.stringMatching(/^Could not connect and sign in to the data source\./)]);
    } finally {
      silent.close();
    }
  }, 60_000);

  it("keeps a source whose role is not verified read-only disabled until an admin accepts the risk", async () => {
    process.env.VIGIL_DATASOURCE_ALLOW_HOSTS = LOCAL;
    const created = await api.post(
      ADMIN,
      sourcesRoute.POST,
      "/api/datasources",
      body("postgres://root:x@127.0.0.1:1/db"),
    );
    expect(created.status).toBe(201);
    const id = (created.body.source as { id: string }).id;
    expect(created.body.source).toMatchObject({ enabled: false, riskAcceptedBy: null });
    await expect(querySource(scope(), id, unguardedSqlForTests("select 1"))).rejects.toMatchObject({
      code: "DATA_SOURCE_DISABLED",
      message: expect.stringMatching(/disabled until a test verifies that its role is read-only/),
    });
    const tested = await api.post(ADMIN, testRoute.POST, `/api/datasources/${id}/test`, {}, { id });
    expect(tested.body.result).toMatchObject({ reachable: false });
    await expect(querySource(scope(), id, unguardedSqlForTests("select 1"))).rejects.toMatchObject({
      code: "DATA_SOURCE_DISABLED",
      message: expect.stringMatching(/did not verify that its role is read-only/),
    });

    const path = `/api/datasources/${id}/accept-risk`;
    expect((await api.post(MEMBER, acceptRoute.POST, path, { accept: true, reason: "x" }, { id })).status).toBe(403);
    for (const bad of [
      {},
      { accept: false, reason: "x" },
      { accept: true },
      { accept: true, reason: " " },
      { accept: true, reason: "x", more: 1 },
    ]) {
      const res = await api.post(ADMIN, acceptRoute.POST, path, bad, { id });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body).toMatchObject({ status: "error", code: "VALIDATION_FAILED" });
    }
    const accepted = await api.post(
      ADMIN,
      acceptRoute.POST,
      path,
      { accept: true, reason: "legacy reporting replica" },
      { id },
    );
    expect(accepted.status).toBe(200);
    expect(accepted.body.source).toMatchObject({ enabled: true, riskAcceptedAt: expect.any(String) });
    expect((accepted.body.source as { riskAcceptedBy: string }).riskAcceptedBy).toBeTruthy();
    // Past the gate now: the query fails only on the (unreachable) server, in the uniform words.
    await expect(querySource(scope(), id, unguardedSqlForTests("select 1"))).rejects.toMatchObject({
      code: "DATA_SOURCE_UNREACHABLE",
      message: expect.stringMatching(/^Could not connect and sign in/),
    });

    await drainTrace();
    const events = rowsOf<{ actor_id: string; event_data: Record<string, unknown> }>(
      await suite.database.db.execute(
        sql`select actor_id, event_data from execution_trace where event_data->>'action' = 'data_source_risk_accepted'`,
      ),
    );
    expect(events).toHaveLength(1);
    expect(events[0].event_data).toMatchObject({
      sourceId: id,
      reason: "legacy reporting replica",
      readOnlyVerified: false,
    });
    expect(events[0].actor_id).toBe((accepted.body.source as { riskAcceptedBy: string }).riskAcceptedBy);
  });
});
