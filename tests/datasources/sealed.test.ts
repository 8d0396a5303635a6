import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { acceptSourceRisk, createDataSource, querySource } from "@/lib/datasources";
import { testTargets } from "../support/databases";
import { seededDatabase } from "../support/seeded";
import { unguardedSqlForTests } from "../support/unguarded-sql";

describe("connection strings sealed at rest", () => {
  const suite = seededDatabase(testTargets()[0], { knowledge: false });
  const previous = process.env.VIGIL_DATASOURCE_KEY;
  const restore = () => {
    if (previous === undefined) delete process.env.VIGIL_DATASOURCE_KEY;
    else process.env.VIGIL_DATASOURCE_KEY = previous;
  };

  it("opens with the key it was sealed with and refuses another", async () => {
    process.env.VIGIL_DATASOURCE_KEY = randomBytes(32).toString("base64");
    try {
      const source = await createDataSource(
        { tenantId: suite.tenants.demo },
        {
          name: "Sealed",
          kind: "postgres",
          connectionString: "postgres://u:p@127.0.0.1:1/db",
          allowedSchemas: ["public"],
          rowLimit: 10,
          statementTimeoutMs: 1000,
        },
        "test",
      );
      await acceptSourceRisk({ tenantId: suite.tenants.demo, userId: "test" }, source.id, {
        accept: true,
        reason: "never reachable",
      });
      // The right key unseals it: the failure is the unreachable server, not the seal.
      await expect(
        querySource({ tenantId: suite.tenants.demo }, source.id, unguardedSqlForTests("select 1")),
      ).rejects.toThrow(/ECONNREFUSED|connect/i);
      process.env.VIGIL_DATASOURCE_KEY = randomBytes(32).toString("hex");
      await expect(
        querySource({ tenantId: suite.tenants.demo }, source.id, unguardedSqlForTests("select 1")),
      ).rejects.toThrow(/VIGIL_DATASOURCE_KEY differs/);
    } finally {
      restore();
    }
  });

  it("refuses a key that is not 32 bytes, and a missing key on a production server deployment", async () => {
    const input = {
      name: "Weak",
      kind: "postgres" as const,
      connectionString: "postgres://u:p@h/db",
      allowedSchemas: ["public"],
      rowLimit: 10,
      statementTimeoutMs: 1000,
    };
    process.env.VIGIL_DATASOURCE_KEY = "short";
    try {
      await expect(createDataSource({ tenantId: suite.tenants.demo }, input, "test")).rejects.toThrow(/32 bytes/);
      delete process.env.VIGIL_DATASOURCE_KEY;
      const env = process.env as Record<string, string | undefined>;
      const nodeEnv = env.NODE_ENV;
      const databaseUrl = env.DATABASE_URL;
      // A server deployment: an embedded one would generate and keep its own key instead.
      env.NODE_ENV = "production";
      env.DATABASE_URL = "postgres://db.internal/vigil";
      try {
        await expect(createDataSource({ tenantId: suite.tenants.demo }, input, "test")).rejects.toThrow(
          /must be set in production/,
        );
      } finally {
        env.NODE_ENV = nodeEnv;
        if (databaseUrl === undefined) delete env.DATABASE_URL;
        else env.DATABASE_URL = databaseUrl;
      }
    } finally {
      restore();
    }
  });
});
