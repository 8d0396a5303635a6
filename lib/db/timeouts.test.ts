import { describe, expect, it } from "vitest";
import { connectionTimeouts } from "./timeouts";

// The pool's idle-in-transaction cut is 15 s unless set (docs/operations.md says why it is not
// tied to the lease); an explicit setting wins, and the migrator keeps its own.
describe("connectionTimeouts", () => {
  it("cuts an idle transaction after 15 s unless set, whatever the lease", () => {
    expect(connectionTimeouts("app", {})).toEqual({
      idle_in_transaction_session_timeout: "15000",
      lock_timeout: "10000",
      statement_timeout: "60000",
    });
    expect(connectionTimeouts("app", { VIGIL_RUN_LEASE_MS: "10000" }).idle_in_transaction_session_timeout).toBe(
      "15000",
    );
    expect(
      connectionTimeouts("app", { VIGIL_DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: "3000" })
        .idle_in_transaction_session_timeout,
    ).toBe("3000");
    expect(
      connectionTimeouts("app", { VIGIL_RUN_LEASE_MS: "10000", VIGIL_DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: "0" })
        .idle_in_transaction_session_timeout,
    ).toBe("0");
    expect(connectionTimeouts("migrate", { VIGIL_RUN_LEASE_MS: "1000" })).toMatchObject({
      lock_timeout: "0",
      statement_timeout: "0",
    });
  });
});
