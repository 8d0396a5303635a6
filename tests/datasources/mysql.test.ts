import { randomBytes } from "node:crypto";
import type mysql from "mysql2/promise";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  acceptSourceRisk,
  createDataSource,
  querySource,
  testDataSource,
  withSourceConnection,
} from "@/lib/datasources";
import { testTargets } from "../support/databases";
import { seededDatabase } from "../support/seeded";
import { loadChinookMysql, MYSQL_URL, mysqlAdmin } from "../support/sql-datasets";
import { unguardedSqlForTests } from "../support/unguarded-sql";

// Against a real MariaDB/MySQL (.ci/run starts one and sets TEST_MYSQL_URL).

describe("the MySQL/MariaDB connector", () => {
  const suite = seededDatabase(testTargets()[0], { knowledge: false });
  const database = `vigil_chinook_${randomBytes(4).toString("hex")}`;
  const reader = `vigil_ro_${randomBytes(4).toString("hex")}`;
  const readerPassword = randomBytes(12).toString("hex");
  let admin: mysql.Connection;
  const ids: Record<string, string> = {};

  const urlFor = (user: string, password: string) => {
    const url = new URL(MYSQL_URL);
    url.username = user;
    url.password = password;
    url.pathname = `/${database}`;
    return url.toString();
  };

  beforeAll(async () => {
    admin = await mysqlAdmin();
    await loadChinookMysql(admin, database);
    await admin.query(`USE \`${database}\``);
    await admin.query(
      "CREATE FUNCTION add_genre() RETURNS INT MODIFIES SQL DATA BEGIN INSERT INTO Genre (GenreId, Name) VALUES (999, 'Written'); RETURN 1; END",
    );
    await admin.query(`CREATE USER '${reader}'@'%' IDENTIFIED BY '${readerPassword}'`);
    await admin.query(`GRANT SELECT ON \`${database}\`.* TO '${reader}'@'%'`);
    const scope = { tenantId: suite.tenants.demo };
    const base = { kind: "mysql" as const, allowedSchemas: [database], rowLimit: 10, statementTimeoutMs: 3000 };
    const rootUrl = new URL(urlFor("root", ""));
    const fromServer = new URL(MYSQL_URL);
    rootUrl.username = fromServer.username;
    rootUrl.password = fromServer.password;
    ids.root = (await createDataSource(scope, { ...base, name: "root", connectionString: rootUrl.toString() }, "t")).id;
    ids.reader = (
      await createDataSource(scope, { ...base, name: "reader", connectionString: urlFor(reader, readerPassword) }, "t")
    ).id;
    // A source is queried only once its account is verified read-only, or an admin accepted the risk.
    expect((await testDataSource(scope, ids.reader)).readOnly.role).toBe(true);
    await acceptSourceRisk({ ...scope, userId: "t" }, ids.root, {
      accept: true,
      reason: "the connector's own defences",
    });
  }, 120_000);

  afterAll(async () => {
    if (!admin) return;
    await admin.query(`DROP DATABASE IF EXISTS \`${database}\``);
    await admin.query(`DROP USER IF EXISTS '${reader}'@'%'`);
    await admin.end();
  });

  const scope = () => ({ tenantId: suite.tenants.demo });

  it("runs a SELECT capped at the row limit, with parameters", async () => {
    const result = await querySource(
      scope(),
      ids.reader,
      unguardedSqlForTests("SELECT TrackId, Name FROM Track ORDER BY TrackId"),
    );
    expect(result.columns).toEqual(["TrackId", "Name"]);
    expect(result.rows).toHaveLength(10);
    expect(result.truncated).toBe(true);
    const one = await querySource(
      scope(),
      ids.reader,
      unguardedSqlForTests("SELECT Name FROM Artist WHERE ArtistId = ?"),
      [1],
    );
    expect(one).toEqual({ columns: ["Name"], rows: [["AC/DC"]], truncated: false });
    const total = await querySource(
      scope(),
      ids.reader,
      unguardedSqlForTests("SELECT SUM(Total) AS total FROM Invoice"),
    );
    expect(total.rows).toEqual([["2328.60"]]);
  });

  it("refuses writes: a non-SELECT before the server, and the read-only transaction even for root", async () => {
    await expect(querySource(scope(), ids.root, unguardedSqlForTests("DELETE FROM Genre"))).rejects.toThrow(
      /Only a SELECT/,
    );
    await expect(querySource(scope(), ids.root, unguardedSqlForTests("SELECT add_genre()"))).rejects.toThrow(
      /READ ONLY transaction/i,
    );
    await expect(
      querySource(scope(), ids.root, unguardedSqlForTests("SELECT 1 INTO OUTFILE '/tmp/vigil-out'")),
    ).rejects.toThrow(/OUTFILE/);
    const [rows] = await admin.query("SELECT COUNT(*) AS n FROM Genre");
    expect(rows).toEqual([{ n: 25 }]);
  });

  it("sets the statement timeout on the session", async () => {
    const result = await withSourceConnection(scope(), ids.reader, async (connection) => {
      const version = await connection.select(unguardedSqlForTests("SELECT VERSION()"));
      const isMaria = /mariadb/i.test(String(version.rows[0][0]));
      return connection.select(
        unguardedSqlForTests(isMaria ? "SELECT @@session.max_statement_time" : "SELECT @@session.max_execution_time"),
      );
    });
    expect(Number(result.rows[0][0])).toBeCloseTo(3, 3);
  });

  it("reports a SELECT-only account read-only and root not, from SHOW GRANTS", async () => {
    const readerTest = await testDataSource(scope(), ids.reader);
    expect(readerTest).toMatchObject({
      reachable: true,
      readOnly: { session: true, role: true, writable: [] },
      schemasFound: [database],
      missingSchemas: [],
    });
    expect(readerTest.serverVersion).toMatch(/MariaDB|MySQL/);
    const rootTest = await testDataSource(scope(), ids.root);
    expect(rootTest.reachable).toBe(true);
    expect(rootTest.readOnly.session).toBe(true);
    expect(rootTest.readOnly.role).toBe(false);
    expect(rootTest.readOnly.writable.join(" ")).toMatch(/ALL PRIVILEGES on \*\.\*/);
  });

  it("lists the catalog with foreign keys", async () => {
    const catalog = await withSourceConnection(scope(), ids.reader, (connection) => connection.catalog());
    expect(catalog.tables).toHaveLength(11);
    expect(catalog.foreignKeys).toContainEqual({
      schema: database,
      table: "Track",
      columns: ["AlbumId"],
      refSchema: database,
      refTable: "Album",
      refColumns: ["AlbumId"],
    });
  });
});
