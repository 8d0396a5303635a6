import { describe, expect, it } from "vitest";
import { isDatabaseBusy, isDatabaseUnavailable, isUniqueViolation } from "./errors";

// Drizzle wraps the driver's error; the code that decides is the driver's, one or more causes down.
const wrapped = (code: string, extra: object = {}) => new Error("query failed", { cause: { code, ...extra } });

describe("database errors", () => {
  it("counts a lost connection or a session the server ended as unavailable, not a wrong statement", () => {
    for (const code of ["ECONNRESET", "CONNECTION_CLOSED", "08006", "57P01", "57P05", "25P03", "53300"]) {
      expect(isDatabaseUnavailable(wrapped(code)), code).toBe(true);
    }
    for (const code of ["42601", "23505", "57014", "25P02"]) {
      expect(isDatabaseUnavailable(wrapped(code)), code).toBe(false);
    }
  });

  it("tells a timed-out statement from an unavailable database", () => {
    expect(isDatabaseBusy(wrapped("57014"))).toBe(true);
    expect(isDatabaseBusy(wrapped("55P03"))).toBe(true);
    expect(isDatabaseBusy(wrapped("25P03"))).toBe(false);
  });

  it("names the violated unique constraint from either driver", () => {
    expect(isUniqueViolation(wrapped("23505", { constraint_name: "runs_pkey" }), "runs_pkey")).toBe(true);
    expect(isUniqueViolation(wrapped("23505", { constraint: "runs_pkey" }), "runs_pkey")).toBe(true);
    expect(isUniqueViolation(wrapped("23505", { constraint_name: "other" }), "runs_pkey")).toBe(false);
  });
});
