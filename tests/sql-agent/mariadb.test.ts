import { randomBytes } from "node:crypto";
import type { UIMessageChunk } from "ai";
import type mysql from "mysql2/promise";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  acceptSourceRisk,
  createDataSource,
  type openWarehouse,
  removeDataSource,
  setWarehouse,
} from "@/lib/datasources";
import type { SqlResultPart } from "@/lib/runs/contract";
import { postChat, principal, textOf } from "../chat/support";
import { testTargets } from "../support/databases";
import { seededDatabase } from "../support/seeded";
import { loadChinookMysql, MYSQL_URL, mysqlAdmin, openTestWarehouse } from "../support/sql-datasets";

// The Data Analyst on a real MariaDB: Chinook loaded from its MySQL script, the same questions
// as on Chinook in PostgreSQL (the demo warehouse), the same answers. Unreachable MariaDB is a
// failure that says so, never a skip.

const QUESTIONS = [
  "How many tracks are there?",
  "Number of tracks per genre",
  "Top 5 customers by total invoice amount",
  "List customers whose country is Germany",
  "Average track milliseconds by genre",
  "How many invoices per billing country in 2022?",
];

const sqlPart = (chunks: UIMessageChunk[]): SqlResultPart | undefined =>
  (chunks.find((c) => c.type === "data-sql") as { data: SqlResultPart } | undefined)?.data;

/** Rows compared as values: numbers rounded, so DECIMAL text and floats agree. */
const values = (part: SqlResultPart) =>
  part.rows.map((row) =>
    row.map((v) => (v !== null && /^-?\d+(?:\.\d+)?$/.test(String(v)) ? Number(Number(v).toFixed(4)) : v)),
  );

describe("the Data Analyst on MariaDB and on PostgreSQL", () => {
  const suite = seededDatabase(testTargets()[0], { knowledge: false });
  const database = `vigil_analyst_${randomBytes(4).toString("hex")}`;
  let admin: mysql.Connection;
  let warehouse: Awaited<ReturnType<typeof openWarehouse>>;

  beforeAll(async () => {
    admin = await mysqlAdmin();
    await loadChinookMysql(admin, database);
    warehouse = await openTestWarehouse("mariadb-test-key");
    setWarehouse(warehouse);
  }, 180_000);

  afterAll(async () => {
    await admin?.query(`DROP DATABASE IF EXISTS \`${database}\``).catch(() => {});
    await admin?.end();
    setWarehouse(undefined);
    await warehouse?.close();
  });

  it("asks the same questions of both and gets the same answers", async () => {
    const scope = { tenantId: suite.tenants.demo };
    const member = await principal(suite.tenants.demo);
    const ask = async (message: string) => {
      const turn = await postChat(member.auth, { agentId: "data-analyst", message });
      const part = sqlPart(turn.chunks);
      expect(part, `${message}: ${textOf(turn.chunks)}`).toBeDefined();
      return part as SqlResultPart;
    };
    const url = new URL(MYSQL_URL);
    url.pathname = `/${database}`;
    const maria = await createDataSource(
      scope,
      {
        name: "Chinook on MariaDB",
        kind: "mysql",
        connectionString: url.toString(),
        allowedSchemas: [database],
        rowLimit: 1000,
        statementTimeoutMs: 5000,
      },
      "test",
    );
    // The suite's server connects as root: the admin accepts the risk before the analyst may query it.
    await acceptSourceRisk({ ...scope, userId: "test" }, maria.id, { accept: true, reason: "local test server" });
    const onMaria: SqlResultPart[] = [];
    for (const q of QUESTIONS) onMaria.push(await ask(q));
    expect(onMaria[0].sql).toContain(`\`${database}\`.\`Track\``);
    await removeDataSource(scope, maria.id);

    await createDataSource(
      scope,
      {
        name: "Chinook on PostgreSQL",
        kind: "warehouse",
        allowedSchemas: ["chinook"],
        rowLimit: 1000,
        statementTimeoutMs: 5000,
      },
      "test",
    );
    for (const [i, q] of QUESTIONS.entries()) {
      const onPostgres = await ask(q);
      expect(onPostgres.sql).toContain(`"chinook"."`);
      expect(values(onMaria[i]), q).toEqual(values(onPostgres));
      expect(onMaria[i].rows.length, q).toBeGreaterThan(0);
    }
  }, 180_000);
});
