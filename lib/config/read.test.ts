import { describe, expect, it } from "vitest";
import { config, configProblems, readConfig } from "./read";
import { SETTINGS } from "./settings";

describe("the settings", () => {
  it("have their defaults when unset or blank", () => {
    for (const env of [{}, { VIGIL_RUN_LEASE_MS: "", VIGIL_CHAT_SOURCES: "  ", VIGIL_REVIEW_CONFIDENCE: "" }]) {
      expect(readConfig(env)).toMatchObject({
        runLeaseMs: 4_000,
        runHeartbeatMs: undefined,
        chatSources: 5,
        reviewConfidence: 0.35,
        dbIdleInTransactionTimeoutMs: 15_000,
        dbMigrateIdleInTransactionTimeoutMs: 300_000,
        seed: true,
        runNotify: true,
        pubmedEnabled: false,
        embeddingBaseUrl: "https://api.openai.com/v1",
        toolsTimeoutSeconds: {},
        trustedProxies: "",
      });
    }
  });

  it("read their values with their types, caps and trimming", () => {
    const c = readConfig({
      VIGIL_RUN_LEASE_MS: " 3000 ",
      VIGIL_CHAT_SOURCES: "50",
      VIGIL_REVIEW_CONFIDENCE: "1.7",
      VIGIL_DB_LOCK_TIMEOUT_MS: "0",
      VIGIL_SEED: "off",
      VIGIL_RUN_NOTIFY: "off",
      VIGIL_PUBMED_ENABLED: "true",
      VIGIL_MODEL: "  gpt-5-mini ",
      VIGIL_TOOLS_TIMEOUT_SECONDS: "calculator = 3, literature_search=9000, bad=x, =4",
      VIGIL_OFFLINE_PACE_MS: "25000",
      VIGIL_SQL_SOURCE_DEADLINE_MS: "1500.6",
      VIGIL_LOG_LEVEL: "debug",
    });
    expect(c).toMatchObject({
      runLeaseMs: 3000,
      chatSources: 20,
      reviewConfidence: 1,
      dbLockTimeoutMs: 0,
      seed: false,
      runNotify: false,
      pubmedEnabled: true,
      model: "gpt-5-mini",
      toolsTimeoutSeconds: { calculator: 3, literature_search: 3600 },
      offlinePaceMs: 10_000,
      sqlSourceDeadlineMs: 1501,
      logLevel: "debug",
    });
  });

  it("keep the default for a value they refuse, and say so in one sentence naming variable, value and default", () => {
    const env = {
      VIGIL_RUN_LEASE_MS: "ten seconds",
      VIGIL_DB_STATEMENT_TIMEOUT_MS: "1.5",
      VIGIL_HITL_SWEEP_MS: "10",
      VIGIL_MAX_RUNNING_RUNS: "-2",
      VIGIL_SEED: "no",
      VIGIL_LOG_LEVEL: "loud",
      VIGIL_FALLBACK_TIMEOUT_MS: "Infinity",
    };
    expect(readConfig(env)).toMatchObject({
      runLeaseMs: 4_000,
      dbStatementTimeoutMs: 60_000,
      hitlSweepMs: 60_000,
      maxRunningRuns: 3,
      seed: true,
      logLevel: "info",
      fallbackTimeoutMs: 5000,
    });
    const problems = configProblems(env);
    expect(problems).toHaveLength(7);
    expect(problems).toContainEqual(
      expect.stringMatching(/^VIGIL_RUN_LEASE_MS="ten seconds" is ignored \(.+\); the default, 4000, applies\.$/),
    );
    expect(problems).toContainEqual(
      expect.stringMatching(/^VIGIL_HITL_SWEEP_MS="10" is ignored \(.+\); the default, 60000, applies\.$/),
    );
    expect(configProblems({ VIGIL_RUN_LEASE_MS: "3000" })).toEqual([]);
  });

  it("log at warn under Vitest unless told otherwise", () => {
    expect(readConfig({ VITEST: "true" }).logLevel).toBe("warn");
    expect(readConfig({ VITEST: "true", VIGIL_LOG_LEVEL: "silent" }).logLevel).toBe("silent");
    expect(readConfig({}).logLevel).toBe("info");
  });

  it("are parsed again when the variables change, and not otherwise", () => {
    const env: Record<string, string | undefined> = { VIGIL_MAX_RUNNING_RUNS: "7" };
    const first = config(env);
    expect(config(env)).toBe(first);
    expect(first.maxRunningRuns).toBe(7);
    env.VIGIL_MAX_RUNNING_RUNS = "9";
    expect(config(env).maxRunningRuns).toBe(9);
    env.VIGIL_MAX_RUNNING_RUNS = undefined;
    expect(config(env).maxRunningRuns).toBe(3);
  });

  it("are all VIGIL_* variables, each named once", () => {
    const names = Object.values(SETTINGS).map((s) => s.env);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^VIGIL_[A-Z0-9_]+$/);
  });
});
