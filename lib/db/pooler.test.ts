import { describe, expect, it } from "vitest";
import { applyTimeouts, refusesStartupParameters } from "./pooler";

describe("refusesStartupParameters", () => {
  it("knows PgBouncer's refusal, also when wrapped, and nothing else", () => {
    const refusal = new Error("unsupported startup parameter: idle_in_transaction_session_timeout");
    expect(refusesStartupParameters(refusal)).toBe(true);
    expect(refusesStartupParameters(new Error("query failed", { cause: refusal }))).toBe(true);
    expect(refusesStartupParameters(new Error("password authentication failed for user"))).toBe(false);
    expect(refusesStartupParameters(undefined)).toBe(false);
  });
});

describe("applyTimeouts", () => {
  it("sets the known timeouts in one statement, passing the values as parameters", async () => {
    const sent: { query: string; parameters: unknown[] }[] = [];
    const connection = {
      unsafe: (query: string, parameters: unknown[] = []) => {
        sent.push({ query, parameters });
        return Promise.resolve([]);
      },
    } as never;
    await applyTimeouts(connection, {
      lock_timeout: "10000",
      statement_timeout: "60000",
      "search_path; drop table runs": "x",
    });
    expect(sent).toHaveLength(1);
    expect(sent[0].query).toBe(
      "select set_config('lock_timeout', $1, false), set_config('statement_timeout', $2, false)",
    );
    expect(sent[0].parameters).toEqual(["10000", "60000"]);
    await applyTimeouts(connection, {});
    expect(sent).toHaveLength(1);
  });
});
