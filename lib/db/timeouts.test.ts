import { describe, expect, it } from "vitest";
import { connectionTimeouts } from "./timeouts";

// The pool's idle-in-transaction cut follows the run lease (a frozen instance must not hold a
// run's row past its lease); an explicit setting still wins, and the migrator keeps its own.
describe("connectionTimeouts", () => {
  it("cuts an idle transaction at three quarters of the run lease unless set", () => {
    expect(connectionTimeouts("app", {})).toEqual({
      idle_in_transaction_session_timeout: "3000",
      lock_timeout: "10000",
      statement_timeout: "60000",
    });
    expect(connectionTimeouts("app", { VIGIL_RUN_LEASE_MS: "10000" }).idle_in_transaction_session_timeout).toBe("7500");
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
